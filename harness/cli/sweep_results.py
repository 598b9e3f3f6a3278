"""What ``sweep.json`` says of finished sweep points: each point's summary, and the steps between neighbours.

A step compares two neighbouring points of one method item by item, as ``frontier compare`` does
(difference, 95% CI, Holm-adjusted p over every step), so a curve shows which steps are real.
"""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from harness.cli.sweep_points import SweepPoint
    from harness.types import RunSummary


def point_summary(point: SweepPoint, summary: RunSummary) -> dict[str, Any]:
    """One sweep point: its method, budget or configuration, run directory, accuracy, tokens and throughput."""
    tasks = {}
    for name, task in summary.tasks.items():
        accuracy = task.metrics.get("accuracy")
        tasks[name] = {
            "accuracy": accuracy.value if accuracy else None,
            "ci": [accuracy.ci_low, accuracy.ci_high] if accuracy else None,
            "n": accuracy.n if accuracy else 0,
            "total_tokens": task.usage.total_tokens,
            "output_tokens": task.usage.output_tokens,
            "cost_usd": task.cost_usd if task.cost_known else None,
            "throughput": task.throughput,
        }
    return {**point.identity(), "complete": summary.complete, "tasks": tasks}


def _position(point: dict[str, Any]) -> int | str:
    """Where a point sits in its sweep: its budget, or its configuration's label."""
    return point["budget"] if point["budget"] is not None else point["label"]


def step_comparisons(points: list[dict[str, Any]], seed: int) -> list[dict[str, Any]]:
    """Each method's neighbouring budgets compared item by item (``frontier compare``), Holm over every step.

    A step that cannot be compared (no item scored by both, say) says why instead of failing the sweep.
    """
    from harness.compare import CompareError, adjust, compare_runs

    steps: list[dict[str, Any]] = []
    for low, high in pairwise(points):
        if low["method"] != high["method"] or "error" in low or "error" in high:
            continue
        step: dict[str, Any] = {"method": low["method"], "from": _position(low), "to": _position(high)}
        try:
            pair = compare_runs([Path(low["run_dir"]), Path(high["run_dir"])], seed=seed)["pairs"][0]
            step["tasks"] = pair["tasks"]
        except CompareError as exc:
            step["not_compared"] = str(exc)
        steps.append(step)
    adjust([step for step in steps if "tasks" in step], "holm")
    return steps


def step_line(step: dict[str, Any]) -> str:
    """One step of the sweep in words: each task's change with its CI and Holm-adjusted p-value."""
    low, high = (f"B={step[end]}" if isinstance(step[end], int) else step[end] for end in ("from", "to"))
    head = f"{step['method'] + ' ' if step['method'] else ''}{low} -> {high}:"
    if "tasks" not in step:
        return f"{head} not compared ({step['not_compared']})"
    parts = [
        f"{name} {row['diff']:+.4f} [{row['ci'][0]:+.4f}, {row['ci'][1]:+.4f}] p={row['p_adjusted']:.3g} (Holm)"
        if "diff" in row
        else f"{name}: no item scored by both"
        for name, row in step["tasks"].items()
    ]
    return f"{head} " + "; ".join(parts)
