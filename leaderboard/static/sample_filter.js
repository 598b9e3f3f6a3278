// The sample index's filter: rows from window.frontierSampleIndex, matched by outcome, task and text.
// Every value is untrusted and set as text (textContent, href of a relative page), never as markup.
(function () {
  "use strict";
  var data = window.frontierSampleIndex || { rows: [], tasks: [] };
  var form = document.getElementById("sample-filter");
  var body = document.getElementById("sample-rows");
  var count = document.getElementById("sample-count");
  var SHOWN = 500;
  if (!form || !body || !count) { return; }

  function cell(row, text) {
    var td = document.createElement("td");
    td.textContent = text;
    row.appendChild(td);
    return td;
  }

  function render() {
    var verdict = form.elements.verdict.value;
    var task = form.elements.task.value;
    var text = form.elements.text.value.toLowerCase();
    var matched = 0;
    var fragment = document.createDocumentFragment();
    data.rows.forEach(function (r) {
      if ((verdict && r[2] !== verdict) || (task !== "" && String(r[0]) !== task)) { return; }
      if (text && String(r[1]).toLowerCase().indexOf(text) < 0 && String(r[5]).toLowerCase().indexOf(text) < 0) { return; }
      matched += 1;
      if (matched > SHOWN) { return; }
      var tr = document.createElement("tr");
      tr.className = "verdict-" + r[2];
      cell(tr, data.tasks[r[0]]);
      var link = document.createElement("a");
      link.textContent = r[1];
      link.setAttribute("href", r[4]);
      cell(tr, "").appendChild(link);
      cell(tr, r[2]);
      cell(tr, r[3] === null ? "–" : String(r[3]));
      fragment.appendChild(tr);
    });
    body.replaceChildren(fragment);
    count.textContent = matched + " of " + data.rows.length + " sample(s) match" + (matched > SHOWN ? "; the first " + SHOWN + " are listed" : "");
  }

  form.addEventListener("input", render);
  form.addEventListener("submit", function (event) { event.preventDefault(); });
  render();
})();
