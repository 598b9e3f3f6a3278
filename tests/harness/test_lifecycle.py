"""One run lifecycle (issue 20 item 2): executors supply only how items are solved; rescore in the harness.

The lifecycle loads each task's samples once, writes the summary however the run ends, and closes
the executor once; rescore scores a run's log through the same scoring path as a run (CPU-heavy
tasks in the local process pool, many scores in flight, one event loop) and keeps the log's order.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from harness.adapters import resolve_adapter
from harness.errors import ConfigError
from harness.executors.local_pool import LocalPoolScoring
from harness.lifecycle import LoadedRun, Record, WorkItem, load_run, run_lifecycle
from harness.plan import RunPlan, TaskPlan
from harness.rescore import rescore_run
from harness.runner import LocalExecutor, RunOptions, execute, solve_sample
from harness.store import RunStore
from harness.task import AnyTask
from harness.types import Output, Sample, Score
from tasks.demo.arith import ArithTask

OPTIONS = RunOptions(concurrency=4, progress=False)
ARITH = RunPlan(model="builtin/oracle", tasks=(TaskPlan("demo/arith", {"n": 6}),))


class FailingAfter:
    """An executor that solves ``keep`` samples with the oracle, then fails (a worker lost for good, say)."""

    def __init__(self, keep: int, fail_at_start: bool = False) -> None:
        self.keep = keep
        self.fail_at_start = fail_at_start
        self.calls: list[str] = []

    async def start(self, run: LoadedRun) -> None:
        self.calls.append("start")
        if self.fail_at_start:
            raise ConfigError("no such model")

    async def plan(self, run: LoadedRun) -> None:
        self.calls.append("plan")

    async def solve(self, items: list[WorkItem], record: Record) -> None:
        self.calls.append(f"solve {len(items)}")
        oracle = resolve_adapter("builtin/oracle")
        for task, sample, settings in items[: self.keep]:
            record(await solve_sample(task, sample, settings, oracle, seed=0))
        raise RuntimeError("the cluster went away")

    async def close(self) -> None:
        self.calls.append("close")


def test_the_summary_is_written_when_the_executor_fails_and_the_run_resumes(tmp_path: Path) -> None:
    executor = FailingAfter(keep=2)
    with pytest.raises(RuntimeError, match="the cluster went away"):
        asyncio.run(run_lifecycle(load_run(ARITH), tmp_path / "run", OPTIONS, executor))
    assert executor.calls == ["start", "plan", "solve 6", "close"]
    summary = RunStore(tmp_path / "run").read_summary()
    assert not summary.complete and summary.tasks["demo/arith"].counts["scored"] == 2
    resumed = asyncio.run(execute(ARITH, tmp_path / "run", OPTIONS))
    assert resumed.complete and resumed.tasks["demo/arith"].counts["scored"] == 6
    assert len((tmp_path / "run" / "samples.jsonl").read_text().splitlines()) == 6


def test_an_executor_that_cannot_start_leaves_no_run_directory(tmp_path: Path) -> None:
    executor = FailingAfter(keep=0, fail_at_start=True)
    with pytest.raises(ConfigError, match="no such model"):
        asyncio.run(run_lifecycle(load_run(ARITH), tmp_path / "run", OPTIONS, executor))
    assert executor.calls == ["start"] and not (tmp_path / "run").exists()


def test_a_locked_directory_closes_the_executor_it_started(tmp_path: Path) -> None:
    asyncio.run(execute(ARITH, tmp_path / "run", OPTIONS))
    holder = RunStore(tmp_path / "run")
    holder.acquire()
    try:
        local = LocalExecutor(ARITH, OPTIONS)
        with pytest.raises(ConfigError, match="in use by another frontier process"):
            asyncio.run(run_lifecycle(load_run(ARITH), tmp_path / "run", OPTIONS, local))
        assert local.model is None
    finally:
        holder.close()


def test_each_tasks_samples_are_loaded_once_per_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    loads: list[str] = []
    original = ArithTask.samples

    def counted(self: ArithTask) -> object:
        loads.append(self.name)
        return original(self)

    monkeypatch.setattr(ArithTask, "samples", counted)
    plan = RunPlan(model="builtin/oracle", tasks=(TaskPlan("demo/arith", {"n": 5}),), methods=("clear:budget=2000",))
    summary = asyncio.run(execute(plan, tmp_path / "run", OPTIONS))
    assert sum(summary.tasks["demo/arith"].counts.values()) == 5
    assert loads == ["demo/arith"]  # for the config's digest, CLEAR's batch planning and the pending samples


def _logged_ids(run: Path) -> list[str]:
    return [json.loads(line)["sample_id"] for line in (run / "samples.jsonl").read_text().splitlines()]


def test_rescore_scores_through_the_pool_with_many_in_flight_and_keeps_the_log_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plan = RunPlan(
        model="builtin/random",
        tasks=(TaskPlan("longcot-gen/math", {"n": 6, "steps": 8}), TaskPlan("demo/arith", {"n": 6})),
        seed=3,
    )
    run = tmp_path / "run"
    before = asyncio.run(execute(plan, run, OPTIONS))
    order = _logged_ids(run)
    in_flight, peak, pooled = [0], [0], []
    original = LocalPoolScoring.score

    async def watched(self: LocalPoolScoring, task: AnyTask, sample: Sample, output: Output) -> Score:
        in_flight[0] += 1
        peak[0] = max(peak[0], in_flight[0])
        try:
            return await original(self, task, sample, output)
        finally:
            in_flight[0] -= 1
            pooled.append(task.name)

    monkeypatch.setattr(LocalPoolScoring, "score", watched)
    rescored, changed = rescore_run(run)
    assert (rescored, changed) == (12, 0)
    assert sorted(pooled) == ["longcot-gen/math"] * 6 and peak[0] > 1
    assert _logged_ids(run) == order
    after = RunStore(run).read_summary()
    assert after.tasks == before.tasks and after.started_at == before.started_at
    assert (run / "samples.before-rescore.1.jsonl").is_file()


def test_rescore_of_a_log_naming_a_vanished_sample_changes_nothing(tmp_path: Path) -> None:
    run = tmp_path / "run"
    asyncio.run(execute(ARITH, run, OPTIONS))
    log = run / "samples.jsonl"
    record = json.loads(log.read_text().splitlines()[0])
    with log.open("a") as handle:
        handle.write(json.dumps({**record, "sample_id": "demo/arith-999"}) + "\n")
    kept = log.read_bytes()
    with pytest.raises(ConfigError, match="demo/arith-999 no longer exists in its task"):
        rescore_run(run)
    assert log.read_bytes() == kept
    assert sorted(p.name for p in run.iterdir()) == [".lock", "config.json", "samples.jsonl", "summary.json"]
