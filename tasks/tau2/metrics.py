"""Summary metrics of τ² episodes: pass^k and pass@k for both rewards, termination shares, tool errors."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from math import comb

from harness.api import MetricValue, SampleResult, mean_metric, proportion_metric

TRIAL_SUFFIX = re.compile(r"#\d+$")


def pass_hat_k(n: int, c: int, k: int) -> float:
    """τ²'s pass^k for one task: the chance that k trials drawn from n (c successful) all succeed."""
    if not 0 < k <= n or not 0 <= c <= n:
        raise ValueError(f"need 0 < k <= n and 0 <= c <= n, got n={n} c={c} k={k}")
    return comb(c, k) / comb(n, k)


def pass_at_k(n: int, c: int, k: int) -> float:
    """pass@k for one task: the chance that at least one of k trials drawn from n succeeds."""
    if not 0 < k <= n or not 0 <= c <= n:
        raise ValueError(f"need 0 < k <= n and 0 <= c <= n, got n={n} c={c} k={k}")
    return 1.0 - comb(n - c, k) / comb(n, k)


def base_task_id(sample_id: str) -> str:
    """The sample id without its ``#<trial>`` suffix."""
    return TRIAL_SUFFIX.sub("", sample_id)


def pass_metrics(outcomes: Mapping[str, list[bool]], seed: int = 0) -> dict[str, MetricValue]:
    """pass^k and pass@k for k = 1 .. the smallest trial count, each a mean over tasks with a 95% CI."""
    if not outcomes:
        return {}
    smallest = min(len(v) for v in outcomes.values())
    metrics: dict[str, MetricValue] = {}
    for k in range(1, smallest + 1):
        hat = [pass_hat_k(len(v), sum(v), k) for v in outcomes.values()]
        at = [pass_at_k(len(v), sum(v), k) for v in outcomes.values()]
        metrics[f"pass^{k}"] = mean_metric(hat, seed=seed)
        metrics[f"pass@{k}"] = mean_metric(at, seed=seed)
    return metrics


def _strict_success(result: SampleResult) -> bool:
    return result.score.outcome == "scored" and result.score.details.get("reward_strict") == 1.0


class EpisodeAccumulator:
    """pass^k / pass@k over trials (``strict/`` for reward_strict), termination shares and tool errors per episode,
    one result at a time; it holds per episode only its two outcomes, termination and tool-error count.

    Infrastructure errors are left out, as τ² leaves them out; an unscored episode counts as a failure.
    """

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.official: dict[str, list[bool]] = {}
        self.strict: dict[str, list[bool]] = {}
        self.terminations: dict[str, int] = {}
        self.tool_errors: list[float] = []
        self.total = 0

    def add(self, result: SampleResult) -> None:
        """Count one episode; errors are left out of every statistic."""
        if result.score.outcome == "error":
            return
        self.total += 1
        task = base_task_id(result.sample_id)
        self.official.setdefault(task, []).append(result.score.value == 1.0)
        self.strict.setdefault(task, []).append(_strict_success(result))
        reason = str(result.output.data.get("termination", "none"))
        self.terminations[reason] = self.terminations.get(reason, 0) + 1
        errors = result.output.data.get("tool_errors")
        if isinstance(errors, int):
            self.tool_errors.append(float(errors))

    def finish(self) -> dict[str, MetricValue]:
        """The episode metrics over every result added."""
        metrics = pass_metrics(self.official, seed=self.seed)
        metrics.update({f"strict/{name}": value for name, value in pass_metrics(self.strict, seed=self.seed).items()})
        for reason, count in sorted(self.terminations.items()):
            metrics[f"termination/{reason}"] = proportion_metric(count, self.total)
        metrics["tool_errors_per_episode"] = mean_metric(self.tool_errors, seed=self.seed, kind="mean")
        return metrics


def episode_metrics(results: Iterable[SampleResult], seed: int = 0) -> dict[str, MetricValue]:
    """The ``EpisodeAccumulator``'s metrics over ``results``."""
    accumulator = EpisodeAccumulator(seed)
    for result in results:
        accumulator.add(result)
    return accumulator.finish()
