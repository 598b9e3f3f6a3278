"""What ``summary.json`` holds: metrics with their intervals and scales, per task and for the whole run."""

from __future__ import annotations

import math

from pydantic import Field, model_validator

from harness.records.base import JsonDict, Record
from harness.records.usage import Usage


class MetricScale(Record):
    """The range a metric's values lie in and which end is better, declared by the task.

    Only for a metric that is not a 0..1 higher-is-better share (a deviation in CVSS points, say): the
    leaderboard maps it onto 0..1 by ``(value - low) / (high - low)``, or ``(high - value) / (high - low)``
    when lower is better, so that it can join a family's and the overall score.
    """

    low: float
    high: float
    higher_is_better: bool = True

    @model_validator(mode="after")
    def _a_finite_range(self) -> MetricScale:
        if not (math.isfinite(self.low) and math.isfinite(self.high) and self.low < self.high):
            raise ValueError(f"a metric's scale needs finite low < high, got [{self.low}, {self.high}]")
        return self


class MetricValue(Record):
    """A metric with its sample count and 95% confidence interval, and its scale when the task declares one."""

    value: float | None
    n: int
    ci_low: float | None = None
    ci_high: float | None = None
    method: str = ""
    scale: MetricScale | None = Field(default=None, exclude_if=lambda scale: scale is None)


class TaskSummary(Record):
    """Aggregates of one task in a run."""

    metrics: dict[str, MetricValue]
    counts: dict[str, int]
    usage: Usage
    cost_usd: float | None
    cost_known: bool = True
    retries: int = 0
    calls: int = 0
    cached_calls: int = 0
    throughput: JsonDict | None = Field(default=None, exclude_if=lambda block: block is None)
    """Output tokens per second as ``harness.throughput`` defines them; absent when no call was timed."""


class RunSummary(Record):
    """``summary.json``: per-task metrics, counts, usage and cost, plus provenance."""

    run_id: str
    model: str
    methods: tuple[str, ...] = ()
    suite: str | None = None
    seed: int = 0
    harness_version: str
    config_hash: str
    tasks: dict[str, TaskSummary]
    started_at: str
    finished_at: str
    complete: bool = True
