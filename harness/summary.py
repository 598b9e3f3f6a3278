"""From a run's logged results to ``summary.json``: metrics with CIs, counts, tokens and cost.

The log is read in **one pass** for the whole run: each result goes to its task's
:class:`TaskTally` (counts, usage, cost) and to the task's metric accumulator, chosen once
per task by :func:`accumulator_of`:

* a task that offers an incremental accumulator (:class:`StreamingAggregate`, such as the
  τ² family) is fed result by result and holds only what its metrics need;
* a task that keeps the base class's per-sample metrics is fed to a :class:`MetricsAccumulator`,
  which holds one float per sample and metric;
* any other task's ``aggregate`` consumes that task's results as the pass reads them, in log
  order as before, from a bounded queue (:class:`StreamedAggregate`, in a thread of its own).
"""

from __future__ import annotations

import contextvars
import math
import queue
import threading
from collections.abc import Iterable, Iterator, Sequence
from typing import Protocol, runtime_checkable

from harness.stats import mean_metric
from harness.task import AnyTask, Metric, Task
from harness.throughput import TimedCall, throughput_of, timed_calls
from harness.types import OUTCOMES, MetricValue, SampleResult, TaskSummary, Usage


class Accumulator(Protocol):
    """Task-level metrics built one result at a time."""

    def add(self, result: SampleResult) -> None:
        """Take one result of the task into account."""

    def finish(self) -> dict[str, MetricValue]:
        """The task's metrics over every result added."""


@runtime_checkable
class StreamingAggregate(Protocol):
    """A task whose ``aggregate`` is also offered as an incremental :class:`Accumulator`."""

    def accumulator(self, seed: int = 0) -> Accumulator:
        """A fresh accumulator equal in its result to ``aggregate`` over the same results."""


class MetricsAccumulator:
    """The base ``Task.aggregate``: the mean of each per-sample metric, samples valued ``None`` left out."""

    def __init__(self, metrics: Sequence[Metric], seed: int = 0) -> None:
        self.metrics = tuple(metrics)
        self.seed = seed
        self._values: dict[str, list[float]] = {metric.name: [] for metric in self.metrics}

    def add(self, result: SampleResult) -> None:
        """Record each metric's value of ``result``."""
        for metric in self.metrics:
            value = metric.value(result)
            if value is not None:
                self._values[metric.name].append(float(value))

    def finish(self) -> dict[str, MetricValue]:
        """Each metric's mean with its n and 95% CI."""
        kinds = {metric.name: metric.kind for metric in self.metrics}
        return {name: mean_metric(values, seed=self.seed, kind=kinds[name]) for name, values in self._values.items()}


_END = object()
"""Marks the end of a task's results in the queue of a :class:`StreamedAggregate`."""


class StreamedAggregate:
    """A task's own ``aggregate``, consuming the task's results as the one pass reads them.

    The aggregate runs in a thread of its own (in a copy of the caller's context) and iterates over a
    bounded queue that :meth:`add` fills, so the log is parsed once and at most ``QUEUE_SIZE`` results
    of the task are held at a time, whatever the run's size. It sees the task's results in log order,
    exactly as when it was given a stream of them; its exception is raised by :meth:`finish`.
    """

    QUEUE_SIZE = 256

    def __init__(self, task: AnyTask, seed: int = 0) -> None:
        self.task = task
        self.seed = seed
        self._queue: queue.Queue[object] = queue.Queue(maxsize=self.QUEUE_SIZE)
        self._ended = False
        self._metrics: dict[str, MetricValue] = {}
        self._error: BaseException | None = None
        self._thread: threading.Thread | None = None

    def _start(self) -> None:
        if self._thread is None:
            context = contextvars.copy_context()
            name = f"aggregate {self.task.name}"
            self._thread = threading.Thread(target=context.run, args=(self._aggregate,), name=name, daemon=True)
            self._thread.start()

    def _stream(self) -> Iterator[SampleResult]:
        while (item := self._queue.get()) is not _END:
            assert isinstance(item, SampleResult)
            yield item
        self._ended = True

    def _aggregate(self) -> None:
        try:
            self._metrics = self.task.aggregate(self._stream(), seed=self.seed)
        except BaseException as exc:
            self._error = exc
        finally:
            while not self._ended:  # an aggregate that stopped early or failed: drain, so add() never blocks
                self._ended = self._queue.get() is _END

    def add(self, result: SampleResult) -> None:
        """Hand ``result`` to the task's ``aggregate`` (waits while the queue is full)."""
        self._start()
        self._queue.put(result)

    def finish(self) -> dict[str, MetricValue]:
        """The task's ``aggregate`` over every result added; its exception, if it raised one."""
        self._start()
        self.close()
        if self._error is not None:
            raise self._error
        return self._metrics

    def close(self) -> None:
        """End the stream and wait for the aggregate to return (also when the pass failed)."""
        if self._thread is not None and self._thread.is_alive():
            self._queue.put(_END)
            self._thread.join()


class CombinedAccumulator:
    """Several accumulators fed the same results; their metrics merged in order (a later name replaces an earlier)."""

    def __init__(self, *parts: Accumulator) -> None:
        self.parts = parts

    def add(self, result: SampleResult) -> None:
        """Feed ``result`` to every part."""
        for part in self.parts:
            part.add(result)

    def finish(self) -> dict[str, MetricValue]:
        """The parts' metrics, merged."""
        merged: dict[str, MetricValue] = {}
        for part in self.parts:
            merged.update(part.finish())
        return merged


def _defined_in(cls: type, name: str) -> int:
    """How far up ``cls``'s method resolution order ``name`` is defined (0: by ``cls`` itself)."""
    return next(depth for depth, klass in enumerate(cls.__mro__) if name in vars(klass))


def accumulator_of(task: AnyTask, seed: int) -> Accumulator:
    """How ``task``'s metrics are built from the one pass (see the module's docstring).

    A task's accumulator is used only where no subclass below it overrides ``aggregate`` again.
    """
    cls = type(task)
    if isinstance(task, StreamingAggregate) and _defined_in(cls, "accumulator") <= _defined_in(cls, "aggregate"):
        return task.accumulator(seed=seed)
    if type(task).aggregate is Task.aggregate:
        return MetricsAccumulator(task.metrics(), seed=seed)
    return StreamedAggregate(task, seed=seed)


def fold(accumulator: Accumulator, results: Iterable[SampleResult]) -> dict[str, MetricValue]:
    """Feed every result to ``accumulator`` and return its metrics (an ``aggregate`` from an accumulator)."""
    for result in results:
        accumulator.add(result)
    return accumulator.finish()


class TaskTally:
    """One task's summary, result by result: outcome counts, usage, cost, retries and calls, and its metrics."""

    def __init__(self, task: AnyTask, seed: int) -> None:
        self.metrics = accumulator_of(task, seed)
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
    tallies: dict[str, TaskTally] = {}
    try:
        for task in tasks:
            tallies[task.name] = TaskTally(task, seed)
        for result in results:
            tally = tallies.get(result.task)
            if tally is not None:
                tally.add(result)
        return {name: tally.finish() for name, tally in tallies.items()}
    finally:
        for tally in tallies.values():
            if isinstance(tally.metrics, StreamedAggregate):
                tally.metrics.close()
