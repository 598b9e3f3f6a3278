"""What a schema cannot say about one schema-valid submission.

A parseable date, runs listed once, each task's family and primary metric consistent with
its name and metrics (rules in :mod:`leaderboard.metrics`), metric values and intervals
inside the metric's range with ``ci_low <= value <= ci_high``, metric ``n`` no larger than
the sample count, per-sample scores that agree with the counts, reasoning tokens within
output tokens, a cost when the cost is declared known.
"""

from __future__ import annotations

import math
from collections import Counter
from datetime import datetime
from typing import Any

from leaderboard.issue import Issue, PathPart, json_path
from leaderboard.metrics import family_of, metric_range, points_up, primary_metric

TOLERANCE = 1e-9


def _check_metric(file: str, base: list[PathPart], name: str, metric: dict[str, Any], total: int) -> list[Issue]:
    issues: list[Issue] = []
    value, n, low, high = metric["value"], metric["n"], metric["ci_low"], metric["ci_high"]
    if value is None:
        # A metric can be undefined on samples it saw (a ratio whose denominator is 0, such as
        # ConFiQA's MR when no answer matched either side); it then has no interval either.
        if n > 0 and (low is not None or high is not None):
            issues.append(Issue(file, json_path([*base, "value"]), f"null value with n={n} > 0 but an interval"))
        if n > total:
            issues.append(Issue(file, json_path([*base, "n"]), f"n={n} exceeds the {total} samples in counts"))
        return issues
    if n > total:
        issues.append(Issue(file, json_path([*base, "n"]), f"n={n} exceeds the {total} samples in counts"))
    range_low, range_high = metric_range(name, metric["method"], metric.get("scale"))
    if range_low is not None and range_high is not None and not range_low < range_high:
        issues.append(Issue(file, json_path([*base, "scale"]), f"scale [{range_low}, {range_high}] is empty"))
    for key, number in (("value", value), ("ci_low", low), ("ci_high", high)):
        if number is None or not math.isfinite(number):
            continue
        if (range_low is not None and number < range_low - TOLERANCE) or (
            range_high is not None and number > range_high + TOLERANCE
        ):
            issues.append(
                Issue(
                    file,
                    json_path([*base, key]),
                    f"{number} is outside the range [{range_low}, {range_high}] of metric {name!r}",
                )
            )
    if (low is None) != (high is None):
        issues.append(
            Issue(
                file,
                json_path([*base, "ci_low" if low is None else "ci_high"]),
                "a confidence interval needs both ends",
            )
        )
    elif low is not None and high is not None and not (low - TOLERANCE <= value <= high + TOLERANCE):
        issues.append(Issue(file, json_path([*base, "value"]), f"value {value} is outside its CI [{low}, {high}]"))
    return issues


def _check_samples(
    file: str, base: list[PathPart], samples: list[dict[str, Any]], counts: dict[str, int]
) -> list[Issue]:
    issues: list[Issue] = []
    ids = [sample["id"] for sample in samples]
    if len(set(ids)) != len(ids):
        seen: set[str] = set()
        for index, ident in enumerate(ids):
            if ident in seen:
                issues.append(
                    Issue(file, json_path([*base, "samples", index, "id"]), f"sample id {ident!r} appears twice")
                )
            seen.add(ident)
    for index, sample in enumerate(samples):
        if (sample["outcome"] == "scored") != (sample["value"] is not None):
            issues.append(
                Issue(
                    file,
                    json_path([*base, "samples", index, "value"]),
                    "a scored sample needs a value; an unscored or error sample has none",
                )
            )
    tally = Counter(sample["outcome"] for sample in samples)
    for outcome, expected in counts.items():
        if tally.get(outcome, 0) != expected:
            issues.append(
                Issue(
                    file,
                    json_path([*base, "counts", outcome]),
                    f"counts say {expected} but the samples hold {tally.get(outcome, 0)}",
                )
            )
    return issues


def _check_task(file: str, name: str, task: dict[str, Any]) -> list[Issue]:
    base: list[PathPart] = ["tasks", name]
    issues: list[Issue] = []
    family = family_of(name)
    if task["family"] != family:
        issues.append(Issue(file, json_path([*base, "family"]), f"family {task['family']!r} is not {family!r}"))
    expected = primary_metric(list(task["metrics"]))
    if task["primary_metric"] != expected:
        issues.append(
            Issue(
                file,
                json_path([*base, "primary_metric"]),
                f"primary metric must be {expected!r} (accuracy when present, else the first)",
            )
        )
    elif task["higher_is_better"] != (up := points_up(expected, task["metrics"][expected].get("scale"))):
        direction = f"{expected!r} is {'higher' if up else 'lower'}-is-better"
        issues.append(Issue(file, json_path([*base, "higher_is_better"]), direction))
    total = sum(task["counts"].values())
    for metric_name, metric in task["metrics"].items():
        issues += _check_metric(file, [*base, "metrics", metric_name], metric_name, metric, total)
    usage = task["usage"]
    if usage["reasoning_tokens"] > usage["output_tokens"]:
        issues.append(
            Issue(
                file,
                json_path([*base, "usage", "reasoning_tokens"]),
                "reasoning tokens are part of output tokens and cannot exceed them",
            )
        )
    if usage["cached_tokens"] > usage["input_tokens"]:
        issues.append(Issue(file, json_path([*base, "usage", "cached_tokens"]), "cached tokens exceed input tokens"))
    if task["cost_known"] and task["cost_usd"] is None:
        issues.append(Issue(file, json_path([*base, "cost_usd"]), "cost_known is true but cost_usd is null"))
    if "samples" in task:
        issues += _check_samples(file, base, task["samples"], task["counts"])
    return issues


def semantic_issues(data: dict[str, Any], file: str = "<submission>") -> list[Issue]:
    """Checks on one schema-valid submission that the schema cannot express."""
    issues: list[Issue] = []
    try:
        datetime.fromisoformat(data["date"].replace("Z", "+00:00"))
    except ValueError:
        issues.append(Issue(file, "$.date", f"{data['date']!r} is not an ISO 8601 date-time"))
    run_ids = [run["run_id"] for run in data["runs"]]
    for index, run_id in enumerate(run_ids):
        if run_id in run_ids[:index]:
            issues.append(Issue(file, json_path(["runs", index, "run_id"]), f"run {run_id!r} listed twice"))
    for name, task in data["tasks"].items():
        issues += _check_task(file, name, task)
    return issues
