"""Pareto frontiers on (cost, score): the non-dominated set, the step frontier and who dominates whom.

A point dominates another when it costs no more and scores no less, and is strictly better
in one of the two. Identical points do not dominate each other, so both stay on the
frontier; of two points at equal cost only the higher-scoring one does.

The step frontier is ``f(c) = max score of frontier points costing <= c``. The report's table
(:func:`standings`) lists each run with the runs that dominate it, ordered so that no run is
listed above one that dominates it; a single summary number (an area under each model's
frontier over a shared window) could rank a dominated run first and is not computed. Costs must
be positive on a log axis: a cost at or below zero is placed at :func:`log_floor` of the costs.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class Point:
    """One submission (or submission on one task) placed on the cost/score plane."""

    cost: float
    score: float
    label: str = ""
    group: str = ""
    meta: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)


def usable(points: Sequence[Point]) -> list[Point]:
    """The points with a finite cost and score."""
    return [p for p in points if math.isfinite(p.cost) and math.isfinite(p.score)]


def frontier_indices(points: Sequence[Point]) -> list[int]:
    """Indices of the non-dominated points (finite ones only), in increasing cost."""
    order = sorted(
        (i for i, p in enumerate(points) if math.isfinite(p.cost) and math.isfinite(p.score)),
        key=lambda i: (points[i].cost, -points[i].score),
    )
    kept: list[int] = []
    best_score, best_cost = -math.inf, math.nan
    for i in order:
        point = points[i]
        if point.score > best_score:
            kept.append(i)
            best_score, best_cost = point.score, point.cost
        elif point.score == best_score and point.cost == best_cost:
            kept.append(i)
    return kept


def frontier(points: Sequence[Point]) -> list[Point]:
    """The non-dominated points in increasing cost."""
    return [points[i] for i in frontier_indices(points)]


def log_floor(costs: Sequence[float]) -> float:
    """Where a zero cost sits on a log axis: a tenth of the smallest positive cost (or 1)."""
    positive = [c for c in costs if math.isfinite(c) and c > 0]
    return min(positive) / 10 if positive else 1.0


def on_log_axis(cost: float, floor: float) -> float:
    """``cost`` clamped to ``floor`` so that it can be drawn on a log axis."""
    return cost if cost > 0 else floor


def step_curve(points: Sequence[Point], right: float) -> tuple[list[float], list[float]]:
    """The staircase through the frontier, extended flat to cost ``right``, as x and y lists."""
    front = frontier(points)
    xs: list[float] = []
    ys: list[float] = []
    for index, point in enumerate(front):
        xs.append(point.cost)
        ys.append(point.score)
        nxt = front[index + 1].cost if index + 1 < len(front) else max(right, point.cost)
        xs.append(nxt)
        ys.append(point.score)
    return xs, ys


def dominators(points: Sequence[Point]) -> list[list[int]]:
    """For each point, the indices of the points that dominate it (empty: it is on the frontier).

    A point with a cost or score that is not finite is dominated by nothing and dominates nothing.
    """
    finite = [math.isfinite(p.cost) and math.isfinite(p.score) for p in points]
    return [
        [
            j
            for j, other in enumerate(points)
            if finite[i]
            and finite[j]
            and other.cost <= point.cost
            and other.score >= point.score
            and (other.cost < point.cost or other.score > point.score)
        ]
        for i, point in enumerate(points)
    ]


def standings(points: Sequence[Point]) -> list[dict[str, Any]]:
    """The points as table rows, best first: label, score, cost and the labels of those that dominate it.

    Rows are ordered by score (higher first), then cost (lower first), so a point that dominates
    another is always listed above it.
    """
    beaten_by = dominators(points)
    order = sorted(range(len(points)), key=lambda i: (-points[i].score, points[i].cost, points[i].label))
    return [
        {
            "label": points[i].label,
            "score": points[i].score,
            "cost": points[i].cost,
            "dominated_by": sorted({points[j].label for j in beaten_by[i]}),
        }
        for i in order
        if math.isfinite(points[i].cost) and math.isfinite(points[i].score)
    ]


def sweeps(points: Sequence[Point]) -> dict[str, list[Point]]:
    """Budget sweeps: points sharing ``meta['sweep']`` (a model with a method family), 2+ points, by cost."""
    found: dict[str, list[Point]] = {}
    for point in usable(points):
        key = point.meta.get("sweep")
        if key:
            found.setdefault(key, []).append(point)
    return {key: sorted(members, key=lambda p: p.cost) for key, members in sorted(found.items()) if len(members) > 1}
