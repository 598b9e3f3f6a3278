"""Head-to-head pages: two submissions of a suite compared task by task on the items both scored.

For every pair of submissions of one suite, ``vs/<slug>.html`` shows per task the difference
B − A of the primary metric over the items both scored (when both carry per-sample results on
the same data), its 95 % CI (:func:`harness.paired.bootstrap_ci`) and p-value (exact McNemar or
sign-flip), Holm-adjusted over the pair's tasks; a forest plot of the differences; and the
discordant items (scored differently by the two), each with links to both submissions' samples.
A task without per-sample results on both sides shows the two marginal values only.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import combinations
from pathlib import Path
from typing import Any

from harness.paired import Item, Stratum, bootstrap_ci, choose_test, difference, holm, p_value
from leaderboard.aggregate import submission_id
from leaderboard.forest import forest_plot
from leaderboard.paired_bands import sample_values
from leaderboard.views import point_label, slug

MAX_DISCORDANT = 200
"""Discordant items listed per task (the count is always given)."""


def task_row(task: str, a: dict[str, Any], b: dict[str, Any], seed: int = 0) -> dict[str, Any]:
    """One task of a head-to-head: both values, and the paired difference where the items can be paired."""
    name = a["primary_metric"]
    row: dict[str, Any] = {
        "task": task,
        "metric": name,
        "a": a["metrics"][name]["value"],
        "b": b["metrics"].get(name, {}).get("value"),
        "paired": False,
    }
    left, right = sample_values(a), sample_values(b)
    if left is None or right is None or a.get("data_hash") != b.get("data_hash") or b["primary_metric"] != name:
        return row
    shared = sorted(set(left) & set(right))
    if not shared:
        return row
    stratum = Stratum([Item(key, None, left[key], right[key]) for key in shared])
    test = choose_test([stratum])
    discordant = [{"id": key, "a": left[key], "b": right[key]} for key in shared if left[key] != right[key]]
    return row | {
        "paired": True,
        "n": len(shared),
        "a": float(stratum.a.mean()),
        "b": float(stratum.b.mean()),
        "diff": difference([stratum]),
        "ci": bootstrap_ci([stratum], seed=seed),
        "test": test,
        "p_value": p_value([stratum], test, seed=seed),
        "discordant_count": len(discordant),
        "discordant": discordant[:MAX_DISCORDANT],
    }


def head_to_head(a: dict[str, Any], b: dict[str, Any]) -> list[dict[str, Any]]:
    """Every task both submissions ran, compared, with Holm-adjusted p-values over the paired ones."""
    rows = [task_row(task, a["tasks"][task], b["tasks"][task]) for task in sorted(set(a["tasks"]) & set(b["tasks"]))]
    paired = [row for row in rows if row["paired"]]
    for row, adjusted in zip(paired, holm([row["p_value"] for row in paired]), strict=True):
        row["p_adjusted"] = adjusted
    return rows


def write_vs_pages(
    out: Path,
    submissions: list[dict[str, Any]],
    samples_links: dict[tuple[str, str], str],
    render: Callable[[dict[str, Any]], str],
) -> dict[str, list[dict[str, str]]]:
    """Write a page (and forest plot) per pair of submissions of each suite; returns each suite's links."""
    (out / "vs").mkdir(exist_ok=True)
    by_suite: dict[str, list[dict[str, Any]]] = {}
    for data in submissions:
        by_suite.setdefault(data["suite"]["name"], []).append(data)
    links: dict[str, list[dict[str, str]]] = {}
    for suite, members in sorted(by_suite.items()):
        members = sorted(members, key=submission_id)
        for a, b in combinations(members, 2):
            id_a, id_b = submission_id(a), submission_id(b)
            name = slug(id_a, id_b)
            label_a, label_b = (
                point_label(a["model"], a["method"]["label"]),
                point_label(b["model"], b["method"]["label"]),
            )
            rows = head_to_head(a, b)
            for row in rows:
                row["samples_a"] = samples_links.get((id_a, row["task"]))
                row["samples_b"] = samples_links.get((id_b, row["task"]))
            plotted = [row for row in rows if row["paired"]]
            if plotted:
                forest_plot(plotted, f"{label_b} − {label_a}", out / "plots" / f"vs-{name}")
            context = {"suite": suite, "a": label_a, "b": label_b, "rows": rows, "plot": bool(plotted), "slug": name}
            (out / "vs" / f"{name}.html").write_text(render(context), encoding="utf-8")
            links.setdefault(suite, []).append({"page": f"vs/{name}.html", "a": label_a, "b": label_b})
    return links
