"""From a run's logged results to ``summary.json``: metrics with CIs, counts, tokens and cost."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Iterator

from harness.task import Task
from harness.types import OUTCOMES, SampleResult, TaskSummary, Usage


def _only(results: Iterable[SampleResult], task: str) -> Iterator[SampleResult]:
    return (r for r in results if r.task == task)


def summarize_task(task: Task, results: Callable[[], Iterable[SampleResult]], seed: int) -> TaskSummary:
    """One task's summary from a fresh stream of the run's results (read twice, never held whole)."""
    counts = dict.fromkeys(OUTCOMES, 0)
    usage = Usage()
    costs: list[float] = []
    cost_known, retries, calls, cached_calls = True, 0, 0, 0
    for result in _only(results(), task.name):
        counts[result.score.outcome] += 1
        usage = usage + result.usage
        retries += result.retries
        calls += len(result.calls)
        cached_calls += sum(1 for call in result.calls if call.cached)
        if result.cost_usd is not None:
            costs.append(result.cost_usd)
        cost_known = cost_known and result.cost_known
    metrics = task.aggregate(_only(results(), task.name), seed=seed)
    return TaskSummary(
        metrics=metrics,
        counts=counts,
        usage=usage,
        # samples that made no billed call (every call failed, say) cost nothing: 0, not unknown
        cost_usd=math.fsum(costs) if costs or (cost_known and sum(counts.values()) > 0) else None,
        cost_known=cost_known and sum(counts.values()) > 0,
        retries=retries,
        calls=calls,
        cached_calls=cached_calls,
    )
