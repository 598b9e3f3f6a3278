"""Trial metrics (pass^k, pass@k) and episode statistics for the summary."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from math import comb

from harness.stats import mean_metric, wilson_interval
from harness.types import MetricValue, SampleResult

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


def share_metric(count: int, n: int) -> MetricValue:
    """A proportion with its Wilson interval."""
    if n == 0:
        return MetricValue(value=None, n=0, method="empty")
    low, high = wilson_interval(count, n)
    return MetricValue(value=count / n, n=n, ci_low=low, ci_high=high, method="wilson")


def episode_metrics(results: Iterable[SampleResult], seed: int = 0) -> dict[str, MetricValue]:
    """pass^k / pass@k over trials, termination shares, tool errors and cost per episode."""
    outcomes: dict[str, list[bool]] = {}
    terminations: dict[str, int] = {}
    tool_errors: list[float] = []
    costs: list[float] = []
    total = 0
    for result in results:
        if result.score.outcome == "error":
            continue
        total += 1
        outcomes.setdefault(base_task_id(result.sample_id), []).append(result.score.value == 1.0)
        data = result.output.data
        reason = str(data.get("termination", "none"))
        terminations[reason] = terminations.get(reason, 0) + 1
        if isinstance(data.get("tool_errors"), int):
            tool_errors.append(float(data["tool_errors"]))
        if result.cost_known and result.cost_usd is not None:
            costs.append(result.cost_usd)
    metrics = pass_metrics(outcomes, seed=seed)
    for reason, count in sorted(terminations.items()):
        metrics[f"termination/{reason}"] = share_metric(count, total)
    metrics["tool_errors_per_episode"] = mean_metric(tool_errors, seed=seed, kind="mean")
    metrics["cost_usd_per_episode"] = mean_metric(costs, seed=seed, kind="mean")
    return metrics
