"""From a run's logged results to ``summary.json``: metrics with CIs, counts, tokens and cost.

The log is read in **one pass** for the whole run: each result goes to its task's
:class:`TaskTally`, which counts it (outcomes, usage, cost, calls) and feeds it to the task's
metrics accumulator (``Task.accumulator(seed)``, :mod:`harness.metrics`: one protocol for every
task, the mean of its per-sample metrics unless the task builds its own).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

from harness.metrics import Accumulator
from harness.task import AnyTask
from harness.throughput import TimedCall, throughput_of, timed_calls
from harness.types import OUTCOMES, SampleResult, TaskSummary, Usage


class TaskTally:
    """One task's summary, result by result: outcome counts, usage, cost, retries and calls, and its metrics."""

    def __init__(self, task: AnyTask, seed: int) -> None:
        self.metrics: Accumulator = task.accumulator(seed)
        self.counts: dict[str, int] = dict.fromkeys(OUTCOMES, 0)
        self.usage = Usage()
        self.costs: list[float] = []
        self.cost_known = True
        self.retries = self.calls = self.cached_calls = 0
        self.timed: list[TimedCall] = []

    def add(self, result: SampleResult) -> None:
        """Count ``result`` and pass it to the task's metrics."""
        self.counts[result.score.outcome] += 1
        self.usage = self.usage + result.usage
        self.retries += result.retries
        self.calls += len(result.calls)
        self.cached_calls += sum(1 for call in result.calls if call.cached)
        self.timed.extend(timed_calls(result))
        if result.cost_usd is not None:
            self.costs.append(result.cost_usd)
        self.cost_known = self.cost_known and result.cost_known
        self.metrics.add(result)

    def finish(self) -> TaskSummary:
        """The task's summary over every result added."""
        logged = sum(self.counts.values())
        return TaskSummary(
            metrics=self.metrics.finish(),
            counts=self.counts,
            usage=self.usage,
            # samples that made no billed call (every call failed, say) cost nothing: 0, not unknown
            cost_usd=math.fsum(self.costs) if self.costs or (self.cost_known and logged > 0) else None,
            cost_known=self.cost_known and logged > 0,
            retries=self.retries,
            calls=self.calls,
            cached_calls=self.cached_calls,
            throughput=throughput_of(self.timed),
        )


def summarize_tasks(tasks: Sequence[AnyTask], results: Iterable[SampleResult], seed: int) -> dict[str, TaskSummary]:
    """Every task's summary from one pass over the run's results; results of other tasks are ignored."""
    tallies = {task.name: TaskTally(task, seed) for task in tasks}
    for result in results:
        tally = tallies.get(result.task)
        if tally is not None:
            tally.add(result)
    return {name: tally.finish() for name, tally in tallies.items()}
