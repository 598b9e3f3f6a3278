"""How a task's metrics are built: one protocol, the :class:`Accumulator`.

A task returns its accumulator from ``Task.accumulator(seed)``; the summary feeds it every result of
the task, in log order, once (``add``) and asks for the metrics at the end (``finish``). The base
task's accumulator is a :class:`MetricsAccumulator`, the mean of each per-sample :class:`Metric`
with its n and 95% CI, so a task that only declares ``metrics()`` needs nothing else. A task whose
metrics are not means of per-sample values (a ratio of sums, a per-group breakdown, a count) writes
an accumulator that keeps what those need (numbers, never the results themselves) and computes
them in ``finish``; :class:`CombinedAccumulator` puts several side by side. A metric that is not a
0..1 higher-is-better share carries its declared range and direction (``MetricScale``, see
:func:`scaled`), by which the leaderboard puts it on the 0..1 scale of family and overall scores.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Protocol

from harness.stats import MetricKind, mean_metric
from harness.types import MetricScale, MetricValue, SampleResult


@dataclass(frozen=True)
class Metric:
    """A per-sample value averaged over a task; ``None`` leaves the sample out.

    ``scale`` declares the range and direction of a metric that is not a 0..1 higher-is-better share
    (a deviation in CVSS points, say); it travels with the value into ``summary.json``.
    """

    name: str
    value: Callable[[SampleResult], float | None]
    description: str = ""
    kind: MetricKind = "auto"
    scale: MetricScale | None = None


class Accumulator(Protocol):
    """Task-level metrics built one result at a time."""

    def add(self, result: SampleResult) -> None:
        """Take one result of the task into account."""

    def finish(self) -> dict[str, MetricValue]:
        """The task's metrics over every result added."""


class MetricsAccumulator:
    """The mean of each per-sample metric, samples valued ``None`` left out (the base task's accumulator)."""

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
        """Each metric's mean with its n, 95% CI and declared scale."""
        return {
            metric.name: scaled(mean_metric(self._values[metric.name], seed=self.seed, kind=metric.kind), metric.scale)
            for metric in self.metrics
        }


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


def scaled(value: MetricValue, scale: MetricScale | None) -> MetricValue:
    """``value`` with its metric's declared ``scale`` (unchanged when there is none)."""
    return value if scale is None else value.model_copy(update={"scale": scale})


def fold(accumulator: Accumulator, results: Iterable[SampleResult]) -> dict[str, MetricValue]:
    """Feed every result to ``accumulator`` and return its metrics."""
    for result in results:
        accumulator.add(result)
    return accumulator.finish()
