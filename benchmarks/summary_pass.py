"""The summary of the smoke suite's run before and after the single pass (issue 20 item 3).

Both sides summarise the same run directory (the smoke suite run with ``builtin/oracle`` unless
``--run`` names one). Before: per task, one stream of ``samples.jsonl`` for counts, usage and cost
and a second for the task's ``aggregate`` (two full parses of the log per task). After:
``harness.lifecycle.summarize_run``, one pass routing each result to its task. Each side is timed
``--repeats`` times (the best is kept), and the full parses of the log are counted on each side.

Usage: python benchmarks/summary_pass.py [--run RUN_DIR] [--repeats 5]
Ends with one line of JSON: {"tasks", "records", "parses_before", "parses_after", "before_ms", "after_ms",
"ratio", "same_metrics"}.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import harness.runlog as runlog
from harness.lifecycle import summarize_run
from harness.plan import PreparedTask, RunPlan, build_task, plan_from_config
from harness.runlog import ModelT
from harness.runner import RunOptions, execute
from harness.store import RunStore
from harness.suites import load_suite
from harness.task import AnyTask
from harness.types import OUTCOMES, SampleResult, TaskSummary, Usage


def _task_before(task: AnyTask, store: RunStore, seed: int) -> TaskSummary:
    """One task's summary as it was computed before: two streams of the log."""
    counts: dict[str, int] = dict.fromkeys(OUTCOMES, 0)
    costs: list[float] = []
    usage, cost_known, retries, calls, cached = Usage(), True, 0, 0, 0
    for result in (r for r in store.results() if r.task == task.name):
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
        metrics=task.aggregate((r for r in store.results() if r.task == task.name), seed=seed),
        counts=counts,
        usage=usage,
        cost_usd=math.fsum(costs) if costs or (cost_known and logged > 0) else None,
        cost_known=cost_known and logged > 0,
        retries=retries,
        calls=calls,
        cached_calls=cached,
    )


def _smoke_run(folder: Path) -> Path:
    suite = load_suite("smoke")
    plan = RunPlan(model="builtin/oracle", tasks=suite.tasks, suite=suite.name, suite_version=suite.version)
    run = folder / "smoke-oracle"
    asyncio.run(execute(plan, run, RunOptions(concurrency=16, progress=False)))
    return run


def _timed(side: Callable[[], dict[str, TaskSummary]], repeats: int) -> tuple[float, int, dict[str, TaskSummary]]:
    """The best time of ``side`` over ``repeats`` runs, the full parses of one run, and its result."""
    parses = [0]
    original = runlog._parse

    def counting(path: Path, number: int, raw: bytes, last: bool, model: type[ModelT]) -> ModelT | None:
        if model is SampleResult:
            parses[0] += 1
        return original(path, number, raw, last, model)

    runlog._parse = counting
    try:
        result = side()
    finally:
        runlog._parse = original
    best = math.inf
    for _ in range(repeats):
        started = time.perf_counter()
        side()
        best = min(best, time.perf_counter() - started)
    return best, parses[0], result


def main() -> None:
    """Summarise the run both ways, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--run", type=Path, help="run directory to summarise (default: the smoke suite, oracle)")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        run = args.run or _smoke_run(Path(folder))
        store = RunStore(run)
        config = store.read_config()
        plan = plan_from_config(config)
        prepared: list[PreparedTask] = [build_task(task_plan) for task_plan in plan.tasks]
        records = len(runlog.winning_lines(store.samples_path))

        def before() -> dict[str, TaskSummary]:
            return {p.task.name: _task_before(p.task, store, plan.seed) for p in prepared}

        def after() -> dict[str, TaskSummary]:
            return summarize_run(store, plan, prepared, config["config_hash"], "", True).tasks

        before_s, parses_before, old = _timed(before, args.repeats)
        after_s, parses_after, new = _timed(after, args.repeats)
    figures = {
        "tasks": len(prepared),
        "records": records,
        "parses_before": round(parses_before / max(1, records), 2),
        "parses_after": round(parses_after / max(1, records), 2),
        "before_ms": round(before_s * 1000, 1),
        "after_ms": round(after_s * 1000, 1),
        "ratio": round(before_s / after_s, 2),
        "same_metrics": old == new,
    }
    print(f"{run}: {figures['tasks']} tasks, {records} records")
    print(f"before: {figures['before_ms']} ms, {figures['parses_before']} full parses of the log")
    print(f"after:  {figures['after_ms']} ms, {figures['parses_after']} full parses of the log")
    print(f"speed-up: {figures['ratio']}x; same summaries: {figures['same_metrics']}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
