"""Pareto frontiers on hand-made points: dominance, ties, equal costs, the step area and sweeps."""

from __future__ import annotations

import math

import pytest

from leaderboard.pareto import Point, frontier, frontier_area, frontier_indices, group_areas, step_curve, sweeps


def pts(*pairs: tuple[float, float]) -> list[Point]:
    return [Point(cost, score, label=f"p{i}") for i, (cost, score) in enumerate(pairs)]


def labels(points: list[Point]) -> list[str]:
    return [p.label for p in points]


def test_dominated_points_are_excluded() -> None:
    points = pts((10, 0.5), (20, 0.4), (30, 0.8), (5, 0.2), (40, 0.8), (25, 0.7))
    assert labels(frontier(points)) == ["p3", "p0", "p5", "p2"]


def test_equal_cost_keeps_only_the_better_score() -> None:
    points = pts((10, 0.5), (10, 0.6), (10, 0.55))
    assert labels(frontier(points)) == ["p1"]


def test_equal_score_keeps_only_the_cheaper() -> None:
    assert labels(frontier(pts((10, 0.5), (20, 0.5), (5, 0.5)))) == ["p2"]


def test_identical_points_both_stay() -> None:
    assert labels(frontier(pts((10, 0.5), (10, 0.5), (20, 0.9)))) == ["p0", "p1", "p2"]


def test_non_finite_points_are_ignored() -> None:
    assert frontier_indices(pts((math.nan, 0.9), (10, math.inf), (10, 0.3))) == [2]
    assert frontier([]) == []


def test_step_curve_goes_flat_to_the_right_edge() -> None:
    xs, ys = step_curve(pts((10, 0.2), (100, 0.6)), right=1000)
    assert xs == [10, 100, 100, 1000]
    assert ys == [0.2, 0.2, 0.6, 0.6]


def test_area_over_log_window() -> None:
    points = pts((10, 0.2), (100, 0.6))
    # window 10..1000: one decade at 0.2, one at 0.6 -> mean 0.4
    assert frontier_area(points, (10, 1000)) == pytest.approx(0.4)
    # window 1..100: one decade at 0 (before the cheapest point), one at 0.2 -> mean 0.1
    assert frontier_area(points, (1, 100)) == pytest.approx(0.1)
    assert frontier_area(points, (100, 100)) == pytest.approx(0.6)
    assert frontier_area([], (1, 10)) is None
    with pytest.raises(ValueError):
        frontier_area(points, (100, 10))


def test_zero_cost_sits_at_the_log_floor() -> None:
    points = pts((0, 0.5), (10, 0.9))
    # floor = 10 / 10 = 1; window 1..10 -> 0.5 over the whole decade
    assert frontier_area(points, (0, 10)) == pytest.approx(0.5)


def test_group_areas_share_one_window() -> None:
    points = [Point(10, 0.2, group="a"), Point(100, 0.6, group="a"), Point(1000, 0.9, group="b")]
    areas = group_areas(points)
    # window 10..1000 (two decades): a = (0.2 + 0.6) / 2; b is 0 until its single point at the right edge
    assert areas == {"a": pytest.approx(0.4), "b": pytest.approx(0.0)}


def test_sweeps_group_by_key_and_sort_by_cost() -> None:
    points = [
        Point(300, 0.7, "c", meta={"sweep": "m · clear"}),
        Point(100, 0.5, "a", meta={"sweep": "m · clear"}),
        Point(50, 0.4, "u", meta={"sweep": "m · uniform"}),
        Point(10, 0.1, "bare", meta={"sweep": None}),
    ]
    found = sweeps(points)
    assert list(found) == ["m · clear"]
    assert [p.label for p in found["m · clear"]] == ["a", "c"]
