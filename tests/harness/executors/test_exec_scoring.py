"""CPU-heavy scoring behind one interface: a thread, a local process pool, the runner's hook."""

from __future__ import annotations

import asyncio
import os
import signal
import time
from pathlib import Path
from typing import Any

import pytest

from harness.executors.local_pool import LocalPoolScoring, local_pool_scoring
from harness.executors.scoring import TaskRef, active_scoring, score_off_loop, using_scoring
from harness.plan import RunPlan, TaskPlan
from harness.registry import resolve_task
from harness.runner import RunOptions, execute
from harness.task import Task
from harness.types import GenerateRequest, Output, Sample, Score


class PidTask(Task):
    """A CPU-heavy task outside the registry; its score names the process that computed it."""

    cpu_heavy = True

    def samples(self) -> list[Sample]:
        return [Sample(id="a", input="x", target=1)]

    def score(self, sample: Sample, output: Output) -> Score:
        if output.text == "boom":
            raise ValueError("scorer bug")
        return Score.of(output.text == "1", pid=os.getpid())


class RecordingBackend:
    """A backend that answers a fixed score and records what it was asked."""

    name = "recording"

    def __init__(self) -> None:
        self.calls: list[tuple[str, str]] = []

    async def score(self, task: Task, sample: Sample, output: Output) -> Score:
        self.calls.append((task.name, sample.id))
        return Score.of(True, via="recording")

    def close(self) -> None:
        pass


def _longcot_cases(data: Path) -> tuple[Any, list[tuple[Sample, Output]]]:
    task = resolve_task("longcot/mini").create(per_template=1, data=str(data / "longcot"))
    cases: list[tuple[Sample, Output]] = []
    import random

    rng = random.Random(0)
    for index, sample in enumerate(task.samples()):
        request = GenerateRequest(messages=tuple(sample.messages()))
        right = task.reference_output(sample, request)
        guess = task.random_output(sample, request, rng)
        cases.append((sample, Output(text=right if index % 2 == 0 else guess)))
        cases.append((sample, Output(text="solution = " + "9" * 20000)))
        cases.append((sample, Output(text="\x00\ufffd not an answer")))
    return task, cases


@pytest.mark.slow
def test_the_pool_scores_exactly_as_the_task_in_other_processes(shared_data: Path) -> None:
    task, cases = _longcot_cases(shared_data)
    expected = [task.score(sample, output) for sample, output in cases]
    backend = LocalPoolScoring(workers=2)
    try:

        async def score_all() -> list[Score]:
            return list(await asyncio.gather(*(backend.score(task, s, o) for s, o in cases)))

        scores = asyncio.run(score_all())
        pids = backend.worker_pids()
    finally:
        backend.close()
    assert [s.model_dump() for s in scores] == [e.model_dump() for e in expected]
    assert {s.outcome for s in scores} >= {"scored", "unscored"}
    assert 0 < sum(s.value or 0 for s in scores) < len(scores)
    assert pids and os.getpid() not in pids


def test_tasks_built_by_parametric_families_can_be_rebuilt_in_workers(shared_data: Path) -> None:
    task = resolve_task("longcot/logic-easy").create(data=str(shared_data / "longcot"))
    ref = TaskRef.of(task)
    assert ref is not None and ref.name == "longcot/logic-easy"
    other = TaskRef.of(resolve_task("longcot/logic-easy").create(data=str(shared_data / "longcot"), per_template=2))
    assert other is not None and other.key != ref.key


def test_a_task_outside_the_registry_is_scored_in_a_thread_and_its_bugs_become_errors() -> None:
    task = PidTask("tests/pid")
    assert TaskRef.of(task) is None
    sample = task.samples()[0]
    backend = LocalPoolScoring(workers=1)
    try:
        right = asyncio.run(backend.score(task, sample, Output(text="1")))
        bug = asyncio.run(backend.score(task, sample, Output(text="boom")))
        assert backend.worker_pids() == []
    finally:
        backend.close()
    assert right.value == 1.0 and right.details["pid"] == os.getpid()
    assert bug.outcome == "error" and "scorer failed: ValueError: scorer bug" in bug.explanation


def test_the_pool_is_rebuilt_when_its_processes_are_killed() -> None:
    task = resolve_task("demo/arith").create(n=3)
    samples = list(task.samples())
    backend = LocalPoolScoring(workers=2)
    try:
        first = asyncio.run(backend.score(task, samples[0], Output(text=f"ANSWER: {samples[0].target}")))
        killed = backend.worker_pids()
        for pid in killed:
            os.kill(pid, signal.SIGKILL)
        deadline = time.monotonic() + 10
        while backend.worker_pids() and time.monotonic() < deadline:
            time.sleep(0.05)

        async def score_rest() -> list[Score]:
            return list(
                await asyncio.gather(*(backend.score(task, s, Output(text=f"ANSWER: {s.target}")) for s in samples))
            )

        rest = asyncio.run(score_rest())
        assert set(backend.worker_pids()).isdisjoint(killed) and backend.worker_pids()
    finally:
        backend.close()
    assert first.value == 1.0 and [s.value for s in rest] == [1.0, 1.0, 1.0]


def test_score_off_loop_uses_the_active_backend_or_a_thread() -> None:
    task = PidTask("tests/pid")
    sample = task.samples()[0]
    backend = RecordingBackend()

    async def both() -> tuple[Score, Score]:
        with using_scoring(backend):
            assert active_scoring() is backend
            routed = await score_off_loop(task, sample, Output(text="0"))
        assert active_scoring() is None
        return routed, await score_off_loop(task, sample, Output(text="1"))

    routed, threaded = asyncio.run(both())
    assert routed.details["via"] == "recording" and backend.calls == [("tests/pid", "a")]
    assert threaded.value == 1.0 and threaded.details["pid"] == os.getpid()
    with pytest.raises(ValueError, match="workers must be at least 1"):
        LocalPoolScoring(workers=0)


def test_the_runner_scores_cpu_heavy_tasks_through_the_active_backend() -> None:
    """``score_safely`` (the runner's scoring): CPU-heavy scoring goes through the backend, other scoring does not."""
    from harness.executors.scoring import score_safely

    heavy = PidTask("tests/pid")
    light = resolve_task("demo/arith").create(n=1)
    backend = RecordingBackend()

    async def run() -> tuple[Score, Score]:
        with using_scoring(backend):
            return (
                await score_safely(heavy, heavy.samples()[0], Output(text="0")),
                await score_safely(light, next(iter(light.samples())), Output(text="ANSWER: 0")),
            )

    heavy_score, light_score = asyncio.run(run())
    assert heavy_score.details.get("via") == "recording"
    assert backend.calls == [("tests/pid", "a")] and "via" not in light_score.details


def test_execute_with_the_pool_logs_the_same_scores_as_evaluate(shared_data: Path, tmp_path: Path) -> None:
    from harness.adapters import resolve_adapter
    from harness.runner import evaluate
    from harness.store import RunStore

    args = {"per_template": 1, "data": str(shared_data / "longcot")}
    task = resolve_task("longcot/mini").create(**args)
    expected = asyncio.run(evaluate(task, resolve_adapter("builtin/random", seed=5), seed=5))
    plan = RunPlan(model="builtin/random", tasks=(TaskPlan("longcot/mini", args),), seed=5)
    with local_pool_scoring(2):
        asyncio.run(execute(plan, tmp_path / "run", RunOptions(concurrency=4, progress=False)))
    logged = {r.sample_id: r for r in RunStore(tmp_path / "run").results()}
    assert len(logged) == len(expected) == 20
    assert {r.sample_id: (r.output.text, r.score.model_dump()) for r in expected} == {
        k: (r.output.text, r.score.model_dump()) for k, r in logged.items()
    }
