"""Rank bands of a task table from paired tests where submissions carry per-sample results.

Two submissions scored on the same items (the same ``data_hash``, both with ``samples``) are
compared item by item with :mod:`harness.paired` (exact McNemar for right/wrong scores, a
sign-flip test otherwise), Holm-adjusted over every such pair of the task; one is *ahead* of the
other when the adjusted p-value is under 0.05 and its items' mean is better. Any other pair is
compared by its marginal 95 % intervals (ahead when they do not overlap), as
:func:`leaderboard.aggregate.rank_bands` does. An entry's best rank is 1 + the entries ahead of
it; its worst is the ranked entries less those it is ahead of.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Literal

from harness.paired import Item, Stratum, choose_test, holm, mcnemar_from_counts, p_value

ALPHA = 0.05
MEAN_TOLERANCE = 1e-6
Basis = Literal["paired", "marginal", "mixed", "none"]


def sample_values(entry: dict[str, Any]) -> dict[str, float] | None:
    """Each sample's value behind the task's primary metric, by id, when that metric is their mean.

    Two readings are tried, as the metrics count: scored values with each unscored answer as 0
    (``accuracy``), then scored values alone (``accuracy_scored``); errors are left out of both.
    None when neither has the metric's ``n`` values and mean (a ratio such as micro F1).
    """
    metric = entry["metrics"][entry["primary_metric"]]
    samples = entry.get("samples")
    if not samples or metric.get("value") is None:
        return None
    scored = {s["id"]: float(s["value"]) for s in samples if s["outcome"] == "scored" and s["value"] is not None}
    with_unscored = scored | {s["id"]: 0.0 for s in samples if s["outcome"] == "unscored"}
    for values in (with_unscored, scored):
        size = len(values)
        if (
            size
            and size == metric.get("n")
            and abs(math.fsum(values.values()) / size - metric["value"]) <= MEAN_TOLERANCE
        ):
            return values
    return None


@dataclass(frozen=True)
class Entry:
    """One row of a task table: its score and marginal CI (0..1, higher is better) and its per-sample values."""

    score: float | None
    low: float | None
    high: float | None
    values: dict[str, float] | None
    data_hash: str | None
    higher_is_better: bool


def paired_p(left: Entry, right: Entry) -> tuple[float, float] | None:
    """(p-value, mean difference right − left) over the items both scored, or None when they cannot be paired."""
    if left.values is None or right.values is None or left.data_hash != right.data_hash:
        return None
    shared = sorted(set(left.values) & set(right.values))
    if not shared:
        return None
    stratum = Stratum([Item(key, None, left.values[key], right.values[key]) for key in shared])
    diff = float(stratum.d.mean())
    return p_value([stratum], choose_test([stratum])), diff


def shared_item_tests(entries: Sequence[Entry], chosen: Sequence[int]) -> dict[tuple[int, int], tuple[float, float]]:
    """:func:`paired_p` of each pair (i < j) of the ``chosen`` entries that have 0/1 values on one same item set
    and data hash, from one matrix product per such group instead of a test per pair (a task table of 200
    entries has 19,900 pairs)."""
    import numpy as np

    groups: dict[tuple[str | None, tuple[str, ...]], list[tuple[int, dict[str, float]]]] = {}
    for i in chosen:
        values = entries[i].values
        if values and all(v in (0.0, 1.0) for v in values.values()):
            groups.setdefault((entries[i].data_hash, tuple(sorted(values))), []).append((i, values))
    found: dict[tuple[int, int], tuple[float, float]] = {}
    for (_, keys), group in groups.items():
        members = [i for i, _ in group]
        rows = np.array([[values[key] for key in keys] for _, values in group])
        only_first = (rows @ (1.0 - rows).T).astype(int).tolist()  # [x][y]: items x got right and y did not
        for x, y in combinations(range(len(members)), 2):
            only_left, only_right = only_first[x][y], only_first[y][x]
            found[members[x], members[y]] = (
                mcnemar_from_counts(only_left, only_right),
                (only_right - only_left) / len(keys),
            )
    return found


def bands(entries: Sequence[Entry]) -> tuple[list[float], list[float], Basis]:
    """Best and worst rank of each entry (NaN when it has no score), and what decided the order."""
    ranked = [i for i, entry in enumerate(entries) if entry.score is not None]
    ahead: set[tuple[int, int]] = set()
    paired: list[tuple[int, int, float, float]] = []
    marginal = False
    grouped = shared_item_tests(entries, ranked)
    for i, j in combinations(ranked, 2):
        test = grouped.get((i, j)) or paired_p(entries[i], entries[j])
        if test is not None:
            paired.append((i, j, *test))
            continue
        marginal = True
        ci_i, ci_j = _interval(entries[i]), _interval(entries[j])
        if ci_i[0] > ci_j[1]:
            ahead.add((i, j))
        elif ci_j[0] > ci_i[1]:
            ahead.add((j, i))
    for (i, j, _, diff), adjusted in zip(paired, holm([p for _, _, p, _ in paired]), strict=True):
        if adjusted < ALPHA and diff != 0:
            better_j = (diff > 0) == entries[i].higher_is_better
            ahead.add((j, i) if better_j else (i, j))
    best = [math.nan] * len(entries)
    worst = [math.nan] * len(entries)
    in_front, behind = Counter(front for front, _ in ahead), Counter(back for _, back in ahead)
    for i in ranked:
        best[i] = 1 + behind[i]
        worst[i] = len(ranked) - in_front[i]
    basis: Basis = "none" if len(ranked) < 2 else "mixed" if paired and marginal else "paired" if paired else "marginal"
    return best, worst, basis


def _interval(entry: Entry) -> tuple[float, float]:
    """The entry's 0..1 interval, its score where the CI is unknown."""
    assert entry.score is not None
    low = entry.low if entry.low is not None else entry.score
    high = entry.high if entry.high is not None else entry.score
    return low, high
