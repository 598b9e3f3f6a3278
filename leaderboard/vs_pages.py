"""Head-to-head pages: two submissions of a suite compared task by task on the items both scored.

For every pair of submissions of one suite, ``vs/<slug>.html`` shows per task the difference
B − A of the primary metric over the items both scored (when both carry per-sample results on
the same data), its 95 % CI (:func:`harness.paired.bootstrap_ci`) and p-value (exact McNemar or
sign-flip), Holm-adjusted over the pair's tasks; a forest plot of the differences; and the
discordant items (scored differently by the two), each with links to both submissions' samples.
A task without per-sample results on both sides shows the two marginal values only.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from itertools import combinations, pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness.paired import Stratum, bootstrap_cis, choose_test, difference, holm, p_value
from leaderboard.aggregate import submission_id
from leaderboard.forest import forest_plot
from leaderboard.outputs import write_output
from leaderboard.paired_bands import sample_values
from leaderboard.runs import RunDir
from leaderboard.side_by_side import write_pair_pages
from leaderboard.views import point_label, slug

if TYPE_CHECKING:
    import numpy as np

MAX_DISCORDANT = 200
"""Discordant items listed per task (the count is always given)."""
SEED = 0
"""The seed of the intervals and sign-flip tests."""
ScoredOf = Callable[[dict[str, Any]], "Scored | None"]
MAX_ALL_PAIRS = 10
"""Up to this many submissions in a suite, every pair gets a page; beyond, each submission is paired
with the suite's leader and with its neighbours in the ranking (a page costs a plot)."""


def pairs_of(ranked: list[str]) -> list[tuple[str, str]]:
    """The pairs of submission ids (best-ranked first) that get a head-to-head page."""
    if len(ranked) <= MAX_ALL_PAIRS:
        return list(combinations(ranked, 2))
    chosen = [(ranked[0], other) for other in ranked[1:]] + list(pairwise(ranked[1:]))
    return chosen


@dataclass(frozen=True)
class Scored:
    """A task entry's per-sample values (:func:`leaderboard.paired_bands.sample_values`), also in key order."""

    keys: tuple[str, ...]
    ordered: np.ndarray
    by_key: dict[str, float]


def scored(entry: dict[str, Any]) -> Scored | None:
    """The entry's per-sample values, None when its metric is not their mean."""
    import numpy as np

    values = sample_values(entry)
    if values is None:
        return None
    keys = tuple(sorted(values))
    ordered = np.array([values[key] for key in keys], dtype=float)
    ordered.flags.writeable = False
    return Scored(keys, ordered, values)


def task_row(
    task: str, a: dict[str, Any], b: dict[str, Any], values: ScoredOf = scored
) -> tuple[dict[str, Any], Stratum | None]:
    """One task of a head-to-head: both values, and the paired difference where the items can be paired,
    with the pairs' stratum (its interval, ``ci``, still to be set: :func:`head_to_head` computes a page's
    intervals together). ``values`` reads a task entry's per-sample values."""
    name = a["primary_metric"]
    row: dict[str, Any] = {
        "task": task,
        "metric": name,
        "a": a["metrics"][name]["value"],
        "b": b["metrics"].get(name, {}).get("value"),
        "paired": False,
    }
    left, right = values(a), values(b)
    if left is None or right is None or a.get("data_hash") != b.get("data_hash") or b["primary_metric"] != name:
        return row, None
    if left.keys == right.keys:  # the usual case: both scored every item
        shared, stratum = left.keys, Stratum.unclustered(left.ordered, right.ordered)
    else:
        shared = tuple(sorted(set(left.keys) & set(right.keys)))
        if not shared:
            return row, None
        stratum = Stratum.unclustered([left.by_key[k] for k in shared], [right.by_key[k] for k in shared])
    test = choose_test([stratum])
    discordant = [
        {"id": shared[i], "a": left.by_key[shared[i]], "b": right.by_key[shared[i]]}
        for i in (stratum.a != stratum.b).nonzero()[0].tolist()
    ]
    paired = row | {
        "paired": True,
        "n": len(shared),
        "a": float(stratum.a.mean()),
        "b": float(stratum.b.mean()),
        "diff": difference([stratum]),
        "test": test,
        "p_value": p_value([stratum], test, seed=SEED),
        "discordant_count": len(discordant),
        "discordant": discordant[:MAX_DISCORDANT],
    }
    return paired, stratum


def head_to_head(a: dict[str, Any], b: dict[str, Any], values: ScoredOf = scored) -> list[dict[str, Any]]:
    """Every task both submissions ran, compared, with Holm-adjusted p-values over the paired ones."""
    found = [
        task_row(task, a["tasks"][task], b["tasks"][task], values) for task in sorted(set(a["tasks"]) & set(b["tasks"]))
    ]
    rows = [row for row, _ in found]
    strata = [(row, stratum) for row, stratum in found if stratum is not None]
    for (row, _), interval in zip(strata, bootstrap_cis([[stratum] for _, stratum in strata], seed=SEED), strict=True):
        row["ci"] = interval
    paired = [row for row in rows if row["paired"]]
    for row, adjusted in zip(paired, holm([row["p_value"] for row in paired]), strict=True):
        row["p_adjusted"] = adjusted
    return rows


def cached_scores() -> ScoredOf:
    """:func:`scored` remembered per task entry (by identity, so only while the entries live): a submission's
    entries meet several others on the head-to-head pages."""
    memo: dict[int, Scored | None] = {}

    def values(entry: dict[str, Any]) -> Scored | None:
        key = id(entry)
        if key not in memo:
            memo[key] = scored(entry)
        return memo[key]

    return values


def write_vs_pages(
    out: Path,
    submissions: list[dict[str, Any]],
    ranking: dict[str, list[str]],
    samples_links: dict[tuple[str, str], str],
    render: Callable[[dict[str, Any]], str],
    runs_of: Mapping[tuple[str, str], RunDir] | None = None,
    render_pair: Callable[[dict[str, Any]], str] | None = None,
) -> dict[str, list[dict[str, str]]]:
    """Write a page (and forest plot) per chosen pair of each suite's submissions, ``ranking`` giving
    each suite's submission ids best first (:func:`pairs_of`); returns each suite's links.

    With ``runs_of`` (the run each submission's task was read from) and ``render_pair``, each
    discordant item both runs logged also gets a side-by-side page of its two transcripts."""
    (out / "vs").mkdir(exist_ok=True)
    by_id = {submission_id(data): data for data in submissions}
    values = cached_scores()
    links: dict[str, list[dict[str, str]]] = {}
    for suite, ranked in sorted(ranking.items()):
        for id_a, id_b in pairs_of([sid for sid in ranked if sid in by_id]):
            a, b = by_id[id_a], by_id[id_b]
            name = slug(id_a, id_b)
            label_a, label_b = (
                point_label(a["model"], a["method"]["label"]),
                point_label(b["model"], b["method"]["label"]),
            )
            rows = head_to_head(a, b, values)
            for row in rows:
                row["samples_a"] = samples_links.get((id_a, row["task"]))
                row["samples_b"] = samples_links.get((id_b, row["task"]))
                sides = (runs_of or {}).get((id_a, row["task"])), (runs_of or {}).get((id_b, row["task"]))
                row["side_by_side"] = {}
                if row.get("discordant") and render_pair is not None and sides[0] and sides[1]:
                    items = [item["id"] for item in row["discordant"]]
                    row["side_by_side"] = write_pair_pages(
                        out, name, row["task"], items, (sides[0], sides[1]), (label_a, label_b), render_pair
                    )
            plotted = [row for row in rows if row["paired"]]
            if plotted:
                forest_plot(plotted, f"{label_b} − {label_a}", out / "plots" / f"vs-{name}")
            context = {"suite": suite, "a": label_a, "b": label_b, "rows": rows, "forest": bool(plotted), "slug": name}
            write_output(out / "vs" / f"{name}.html", render(context))
            links.setdefault(suite, []).append({"page": f"vs/{name}.html", "a": label_a, "b": label_b})
    return links
