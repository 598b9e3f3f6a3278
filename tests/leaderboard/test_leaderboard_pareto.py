"""Pareto frontiers on hand-made points: dominance, ties, equal costs, the standings table and sweeps."""

from __future__ import annotations

import math

from leaderboard.pareto import Point, dominators, frontier, frontier_indices, standings, step_curve, sweeps


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


def test_standings_list_a_dominating_run_above_every_run_it_dominates() -> None:
    """Issue 38 item 4: the smoke suite's oracle (1.0 at 449 tokens) ranked below random (0.054 at 448)
    on the frontier area; an oracle that also costs less must come first, and random is named dominated."""
    points = [Point(448, 0.054, "random", "random"), Point(449, 1.0, "oracle", "oracle")]
    table = standings(points)
    assert [row["label"] for row in table] == ["oracle", "random"]
    assert [row["dominated_by"] for row in table] == [[], []]  # the oracle costs one token more: neither dominates
    cheaper = [Point(449, 0.054, "random", "random"), Point(448, 1.0, "oracle", "oracle"), Point(448, 1.0, "twin")]
    table = standings(cheaper)
    assert [row["label"] for row in table] == ["oracle", "twin", "random"]
    assert table[2]["dominated_by"] == ["oracle", "twin"] and table[0]["dominated_by"] == table[1]["dominated_by"] == []


def test_every_dominating_pair_is_ordered_in_random_boards() -> None:
    import random

    rng = random.Random(7)
    for _ in range(200):
        points = [Point(rng.choice([1, 2, 3, 10]), rng.choice([0.0, 0.5, 1.0]), f"p{i}") for i in range(6)]
        points.append(Point(math.nan, 1.0, "no cost"))
        order = [row["label"] for row in standings(points)]
        assert "no cost" not in order
        for i, beaten in enumerate(dominators(points)):
            for j in beaten:
                assert order.index(points[j].label) < order.index(points[i].label)


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
