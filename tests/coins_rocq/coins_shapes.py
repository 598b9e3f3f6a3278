"""Shared helper of the ladder tests: judging spec shapes (imported by module name, as tests/leaderboard does)."""

from __future__ import annotations

from coins_rocq import Case, CoqtopPool, SpecReport, check_specs, parse_signature

Shape = tuple[str, str, list[Case]]
"""A test spec: its Rocq source, its signature and its cases."""


def judge(shapes: list[Shape]) -> list[SpecReport]:
    """The reports on ``shapes``, judged on a two-worker pool of their own."""
    with CoqtopPool(2) as pool:
        return check_specs([(src, parse_signature(sig), cases) for src, sig, cases in shapes], pool)


def verdicts(shapes: list[Shape]) -> list[str]:
    """The verdicts on ``shapes``."""
    return [r.verdict for r in judge(shapes)]


def assert_all_correct(shapes: list[Shape]) -> None:
    """Judge ``shapes``; fail, naming each verdict and its first two obligations not proved, unless
    every shape is ``correct``."""
    reports = judge(shapes)
    unproved = [
        (r.verdict, [(x.obligation.goal[:90], x.outcome) for x in r.results if x.outcome != "proved"][:2])
        for r in reports
    ]
    assert [r.verdict for r in reports] == ["correct"] * len(shapes), unproved
