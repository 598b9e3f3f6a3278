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
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

from harness.paired import Item, Stratum, choose_test, mcnemar_from_counts, p_value

if TYPE_CHECKING:
    import numpy as np

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


class PairTests(NamedTuple):
    """Paired tests of pairs of entries, as parallel arrays: the pairs (``first`` < ``second``), each
    one's p-value and mean difference ``second − first``."""

    first: np.ndarray
    second: np.ndarray
    p: np.ndarray
    diff: np.ndarray


def shared_item_tests(entries: Sequence[Entry], chosen: Sequence[int]) -> PairTests:
    """:func:`paired_p` of each pair (i < j) of the ``chosen`` entries that have 0/1 values on one same item set
    and data hash, from one matrix product per such group instead of a test per pair (a task table of 200
    entries has 19,900 pairs), with one exact McNemar test per distinct pair of discordant counts."""
    import numpy as np

    groups: dict[tuple[str | None, tuple[str, ...]], list[tuple[int, dict[str, float]]]] = {}
    for i in chosen:
        values = entries[i].values
        if values and all(v in (0.0, 1.0) for v in values.values()):
            groups.setdefault((entries[i].data_hash, tuple(sorted(values))), []).append((i, values))
    parts: list[tuple[np.ndarray, ...]] = []
    for (_, keys), group in groups.items():
        members = np.array([i for i, _ in group], dtype=np.intp)
        rows = np.array([[values[key] for key in keys] for _, values in group])
        only_first = (rows @ (1.0 - rows).T).astype(np.int64)  # [x][y]: items x got right and y did not
        x, y = np.triu_indices(len(members), 1)
        only_left, only_right = only_first[x, y], only_first[y, x]
        parts.append((members[x], members[y], _mcnemar(only_left, only_right), (only_right - only_left) / len(keys)))
    if not parts:
        empty = np.zeros(0, dtype=np.intp)
        return PairTests(empty, empty, np.zeros(0), np.zeros(0))
    return PairTests(*(np.concatenate(column) for column in zip(*parts, strict=True)))


def _mcnemar(only_left: np.ndarray, only_right: np.ndarray) -> np.ndarray:
    """:func:`mcnemar_from_counts` of each pair of counts, computed once per distinct pair."""
    import numpy as np

    base = int(only_right.max(initial=0)) + 1
    codes, where = np.unique(only_left * base + only_right, return_inverse=True)
    p = np.array([mcnemar_from_counts(code // base, code % base) for code in codes.tolist()])
    return p[where.reshape(-1)]


def bands(entries: Sequence[Entry]) -> tuple[list[float], list[float], Basis]:
    """Best and worst rank of each entry (NaN when it has no score), and what decided the order."""
    import numpy as np

    ranked = [i for i, entry in enumerate(entries) if entry.score is not None]
    grouped = shared_item_tests(entries, ranked)
    front: list[int] = []
    back: list[int] = []
    other: list[tuple[int, int, float, float]] = []
    marginal = False
    covered = set(zip(grouped.first.tolist(), grouped.second.tolist(), strict=True))
    rest = [] if len(covered) == len(ranked) * (len(ranked) - 1) // 2 else combinations(ranked, 2)
    for i, j in rest:
        if (i, j) in covered:
            continue
        test = paired_p(entries[i], entries[j])
        if test is not None:
            other.append((i, j, *test))
            continue
        marginal = True
        ci_i, ci_j = _interval(entries[i]), _interval(entries[j])
        if ci_i[0] > ci_j[1] or ci_j[0] > ci_i[1]:
            ahead_first = ci_i[0] > ci_j[1]
            front.append(i if ahead_first else j)
            back.append(j if ahead_first else i)
    first = np.concatenate([grouped.first, np.array([t[0] for t in other], dtype=np.intp)])
    second = np.concatenate([grouped.second, np.array([t[1] for t in other], dtype=np.intp)])
    p = np.concatenate([grouped.p, np.array([t[2] for t in other])])
    diff = np.concatenate([grouped.diff, np.array([t[3] for t in other])])
    higher = np.array([entry.higher_is_better for entry in entries], dtype=bool)
    ahead = (holm_array(p) < ALPHA) & (diff != 0)
    better_second = (diff > 0) == higher[first]
    front_all = np.concatenate([np.where(better_second, second, first)[ahead], np.array(front, dtype=np.intp)])
    back_all = np.concatenate([np.where(better_second, first, second)[ahead], np.array(back, dtype=np.intp)])
    in_front = np.bincount(front_all, minlength=len(entries)).tolist()
    behind = np.bincount(back_all, minlength=len(entries)).tolist()
    best = [math.nan] * len(entries)
    worst = [math.nan] * len(entries)
    for i in ranked:
        best[i] = 1 + behind[i]
        worst[i] = len(ranked) - in_front[i]
    paired = len(p) > 0
    basis: Basis = "none" if len(ranked) < 2 else "mixed" if paired and marginal else "paired" if paired else "marginal"
    return best, worst, basis


def holm_array(p_values: np.ndarray) -> np.ndarray:
    """:func:`harness.paired.holm` of an array (the same numbers), without a Python step per p-value."""
    import numpy as np

    order = np.argsort(p_values, kind="stable")
    steps = np.minimum(1.0, (len(p_values) - np.arange(len(p_values))) * p_values[order])
    adjusted = np.empty(len(p_values))
    adjusted[order] = np.maximum.accumulate(steps) if len(p_values) else steps
    return adjusted


def _interval(entry: Entry) -> tuple[float, float]:
    """The entry's 0..1 interval, its score where the CI is unknown."""
    assert entry.score is not None
    low = entry.low if entry.low is not None else entry.score
    high = entry.high if entry.high is not None else entry.score
    return low, high
