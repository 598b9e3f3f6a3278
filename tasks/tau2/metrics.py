"""Summary metrics of τ² episodes: pass^k and pass@k for both rewards, termination shares, tool errors."""

from __future__ import annotations

from collections.abc import Iterable

from harness.stats import mean_metric, proportion_metric
from harness.types import MetricValue, SampleResult
from tasks.tools.metrics import base_task_id, pass_metrics


def _strict_success(result: SampleResult) -> bool:
    return result.score.outcome == "scored" and result.score.details.get("reward_strict") == 1.0


def episode_metrics(results: Iterable[SampleResult], seed: int = 0) -> dict[str, MetricValue]:
    """pass^k / pass@k over trials (``strict/`` for reward_strict), termination shares and tool errors per episode.

    Infrastructure errors are left out, as τ² leaves them out; an unscored episode counts as a failure.
    """
    official: dict[str, list[bool]] = {}
    strict: dict[str, list[bool]] = {}
    terminations: dict[str, int] = {}
    tool_errors: list[float] = []
    total = 0
    for result in results:
        if result.score.outcome == "error":
            continue
        total += 1
        task = base_task_id(result.sample_id)
        official.setdefault(task, []).append(result.score.value == 1.0)
        strict.setdefault(task, []).append(_strict_success(result))
        reason = str(result.output.data.get("termination", "none"))
        terminations[reason] = terminations.get(reason, 0) + 1
        errors = result.output.data.get("tool_errors")
        if isinstance(errors, int):
            tool_errors.append(float(errors))
    metrics = pass_metrics(official, seed=seed)
    metrics.update({f"strict/{name}": value for name, value in pass_metrics(strict, seed=seed).items()})
    for reason, count in sorted(terminations.items()):
        metrics[f"termination/{reason}"] = proportion_metric(count, total)
    metrics["tool_errors_per_episode"] = mean_metric(tool_errors, seed=seed, kind="mean")
    return metrics
