"""A scorer that spins on an output is stopped at the task's CPU-time limit: the sample is unscored with the
reason, the run goes on, in every scoring path (inline, a thread, a pool process's scoring function)."""

from __future__ import annotations

import asyncio
import functools
import time

import pytest

from harness.adapters import resolve_adapter
from harness.executors.scoring import score_in_thread, score_safely
from harness.executors.time_limit import score_within
from harness.runner import evaluate
from harness.task import SolveContext, Task, TaskArgs
from harness.types import Output, Sample, Score


def _spin() -> Score:
    while True:
        pass


class SpinningTask(Task[TaskArgs]):
    """Scores ``fast`` at once and spins forever on anything else."""

    scoring_time_limit_s = 0.3

    def samples(self) -> list[Sample]:
        return [Sample(id="fast", input="a", target="fast"), Sample(id="slow", input="b", target="slow")]

    async def solve(self, sample: Sample, context: SolveContext) -> Output:
        return Output(text=str(sample.target))

    def score(self, sample: Sample, output: Output) -> Score:
        return Score.of(True) if output.text == "fast" else _spin()


class HeavySpinningTask(SpinningTask):
    cpu_heavy = True


@pytest.mark.parametrize("kind", [SpinningTask, HeavySpinningTask])
def test_a_spinning_scorer_is_unscored_at_the_limit_and_the_run_goes_on(kind: type[SpinningTask]) -> None:
    started = time.monotonic()
    results = asyncio.run(evaluate(kind("spin"), resolve_adapter("builtin/oracle")))
    assert time.monotonic() - started < 30
    by_id = {r.sample_id: r.score for r in results}
    assert by_id["fast"].outcome == "scored" and by_id["fast"].correct is True
    assert by_id["slow"].outcome == "unscored"
    assert by_id["slow"].explanation == "scoring time limit 0.3 s"
    assert by_id["slow"].details["time_limit_s"] == 0.3


def test_every_path_applies_the_limit_and_swallowing_scorers_cannot_hide_it() -> None:
    task = SpinningTask("spin")
    slow = Sample(id="slow", input="b", target="slow")
    assert asyncio.run(score_in_thread(task, slow, Output(text="slow"))).outcome == "unscored"
    assert asyncio.run(score_safely(task, slow, Output(text="slow"))).outcome == "unscored"

    def swallowing() -> Score:
        try:
            _spin()
        except Exception:
            return Score.of(True)
        return Score.of(True)

    assert score_within(0.2, swallowing).explanation == "scoring time limit 0.2 s"


def test_waiting_is_not_spending_and_a_fast_scorer_keeps_its_score() -> None:
    def sleeper() -> Score:
        time.sleep(0.5)
        return Score.of(False)

    assert score_within(0.2, sleeper) == Score.of(False)
    assert score_within(5, lambda: Score.of(True)) == Score.of(True)


def test_stops_arriving_at_any_moment_never_escape_or_leave_a_guard_behind() -> None:
    """Scorers that finish just before, at and after a tiny limit: every stop lands inside the guard."""
    from harness.executors import time_limit

    def busy(seconds: float) -> Score:
        end = time.thread_time() + seconds
        while time.thread_time() < end:
            pass
        return Score.of(True)

    outcomes = set()
    for index in range(300):
        result = score_within(0.02, functools.partial(busy, (index % 7) * 0.006))
        outcomes.add(result.outcome)
        assert result == Score.of(True) or result.explanation == "scoring time limit 0.02 s"
    assert outcomes == {"scored", "unscored"}
    assert not time_limit._WATCHDOG._guards and not time_limit._WATCHDOG.guarding()
