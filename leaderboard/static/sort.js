// Sortable tables: click (or press Enter on) a column heading to sort by it; again to reverse.
// Numeric columns sort by each cell's data-sort value; empty values always sort last.
"use strict";

function cellKey(row, index, numeric) {
  const cell = row.cells[index];
  if (!cell) { return numeric ? NaN : ""; }
  const raw = cell.hasAttribute("data-sort") ? cell.getAttribute("data-sort") : cell.textContent.trim();
  if (!numeric) { return raw.toLowerCase(); }
  return raw === "" ? NaN : Number(raw);
}

function sortTable(table, index, header) {
  const numeric = header.getAttribute("data-type") === "number";
  const ascending = header.getAttribute("aria-sort") !== "ascending";
  const body = table.tBodies[0];
  const rows = Array.from(body.rows).map((row, order) => ({ row, order, key: cellKey(row, index, numeric) }));
  rows.sort((a, b) => {
    const aMissing = numeric ? Number.isNaN(a.key) : a.key === "";
    const bMissing = numeric ? Number.isNaN(b.key) : b.key === "";
    if (aMissing !== bMissing) { return aMissing ? 1 : -1; }
    let diff = 0;
    if (!aMissing) { diff = numeric ? a.key - b.key : a.key.localeCompare(b.key); }
    if (!ascending) { diff = -diff; }
    return diff !== 0 ? diff : a.order - b.order;
  });
  for (const th of table.tHead.rows[0].cells) { th.removeAttribute("aria-sort"); }
  header.setAttribute("aria-sort", ascending ? "ascending" : "descending");
  const fragment = document.createDocumentFragment();
  for (const item of rows) { fragment.appendChild(item.row); }
  body.appendChild(fragment);
}

function makeSortable(table) {
  if (!table.tHead || !table.tBodies.length) { return; }
  Array.from(table.tHead.rows[0].cells).forEach((th, index) => {
    const button = document.createElement("button");
    button.type = "button";
    while (th.firstChild) { button.appendChild(th.firstChild); }
    th.appendChild(button);
    button.addEventListener("click", () => sortTable(table, index, th));
  });
}

document.querySelectorAll("table.sortable").forEach(makeSortable);
