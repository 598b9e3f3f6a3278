"""Pareto frontiers on (cost, score): the non-dominated set, the step frontier and its area.

A point dominates another when it costs no more and scores no less, and is strictly better
in one of the two. Identical points do not dominate each other, so both stay on the
frontier; of two points at equal cost only the higher-scoring one does.

The step frontier is ``f(c) = max score of frontier points costing <= c`` (0 below the
cheapest point). Its area is taken over a shared window of log10 cost and divided by the
window's width, so it reads as the mean score a budget drawn log-uniformly from the window
buys (0..1 for 0..1 scores). Costs must be positive on a log axis: a cost at or below zero
is placed at :func:`log_floor` of the costs.
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


def frontier_area(points: Sequence[Point], window: tuple[float, float], floor: float | None = None) -> float | None:
    """Mean height of the step frontier over ``window`` on a log10 cost axis (None if no point).

    A window of zero width gives the frontier's value at that cost.
    """
    front = frontier(points)
    if not front:
        return None
    floor = log_floor([p.cost for p in points]) if floor is None else floor
    low, high = (math.log10(on_log_axis(c, floor)) for c in window)
    if high < low:
        raise ValueError(f"window {window} has its ends reversed")
    steps = [(math.log10(on_log_axis(p.cost, floor)), p.score) for p in front]
    if high == low:
        return max((s for x, s in steps if x <= low), default=0.0)
    area = 0.0
    for index, (x, score) in enumerate(steps):
        nxt = steps[index + 1][0] if index + 1 < len(steps) else high
        start, end = max(x, low), min(nxt, high)
        if end > start:
            area += score * (end - start)
    return area / (high - low)


def shared_window(points: Sequence[Point]) -> tuple[float, float] | None:
    """The cost window every group is compared over: the span of all finite costs."""
    costs = [p.cost for p in usable(points)]
    return (min(costs), max(costs)) if costs else None


def group_areas(points: Sequence[Point]) -> dict[str, float | None]:
    """Area under each group's own frontier (a group is usually one model) over the shared window."""
    window = shared_window(points)
    floor = log_floor([p.cost for p in points])
    groups: dict[str, list[Point]] = {}
    for point in usable(points):
        groups.setdefault(point.group, []).append(point)
    if window is None:
        return {}
    return {name: frontier_area(members, window, floor) for name, members in sorted(groups.items())}


def sweeps(points: Sequence[Point]) -> dict[str, list[Point]]:
    """Budget sweeps: points sharing ``meta['sweep']`` (a model with a method family), 2+ points, by cost."""
    found: dict[str, list[Point]] = {}
    for point in usable(points):
        key = point.meta.get("sweep")
        if key:
            found.setdefault(key, []).append(point)
    return {key: sorted(members, key=lambda p: p.cost) for key, members in sorted(found.items()) if len(members) > 1}
