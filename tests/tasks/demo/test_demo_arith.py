"""``demo/arith``: seeded problems and an exact scorer, tested both ways."""

from __future__ import annotations

import pytest

from harness.registry import resolve_task
from harness.testing.responders import solve_arith
from harness.types import Output


def test_problems_are_seeded_and_answers_consistent() -> None:
    task = resolve_task("demo/arith").create(n=30, steps=5, seed=4)
    samples = list(task.samples())
    assert [s.id for s in samples] == [s.id for s in resolve_task("demo/arith").create(n=30, steps=5, seed=4).samples()]
    assert [s.input for s in samples] != [s.input for s in resolve_task("demo/arith").create(n=30, steps=5).samples()]
    assert all(solve_arith(str(s.input)) == s.target for s in samples)


@pytest.mark.parametrize(
    "text,outcome,value",
    [
        ("ANSWER: {t}", "scored", 1.0),
        ("Let me think.\n**Answer:** {t}", "scored", 1.0),
        ("ANSWER: {t1}", "scored", 0.0),
        ("The answer is {t}", "unscored", None),
        ("ANSWER: seven", "unscored", None),
        ("ANSWER: " + "9" * 10_000, "unscored", None),
        ("", "unscored", None),
    ],
)
def test_scorer_both_ways(text: str, outcome: str, value: float | None) -> None:
    task = resolve_task("demo/arith").create(n=1)
    sample = next(iter(task.samples()))
    score = task.score(sample, Output(text=text.format(t=sample.target, t1=sample.target + 1)))
    assert (score.outcome, score.value) == (outcome, value)
