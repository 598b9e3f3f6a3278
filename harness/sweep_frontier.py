"""The frontiers of a sweep: score against output tok/s, latency, tokens and cost, dominated points named.

A point dominates another on an axis when its score is no lower and its figure no worse (higher
tok/s; lower latency, tokens or cost), and it is strictly better in one of the two. Scores carry
their task's 95% CI; tok/s and latency the bootstrap intervals of :mod:`harness.throughput`. A
point without the figure (no timed call, unknown cost) is left off that axis.

Along each axis's frontier, from the best figure to the best score, every step between
neighbouring frontier points is a trade of score for speed (or tokens, or cost); each step is
compared item by item as ``frontier compare`` does (:func:`frontier_steps`), Holm over all of them,
so the sweep says which of the score drops bought with speed are real.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Axis:
    """One axis: its key in sweep.json, words, direction and where a point's figure and interval are."""

    key: str
    words: str
    higher_is_better: bool
    throughput_field: str | None
    ci_field: str | None


AXES = (
    Axis("output_tok_s", "output tok/s", True, "output_tok_s", "output_tok_s_ci"),
    Axis("latency_s", "median latency (s)", False, "latency_s_median", "latency_s_median_ci"),
    Axis("total_tokens", "total tokens", False, None, None),
    Axis("cost_usd", "cost (USD)", False, None, None),
)


def _figure(task: dict[str, Any], axis: Axis) -> tuple[float | None, list[float] | None]:
    """A task row's figure on ``axis`` and its interval (None when it has none)."""
    if axis.throughput_field is None:
        value = task.get(axis.key)
        return (float(value) if isinstance(value, int | float) else None), None
    block = task.get("throughput") or {}
    value = block.get(axis.throughput_field)
    interval = block.get(axis.ci_field) if axis.ci_field else None
    return (float(value) if isinstance(value, int | float) else None), interval


def _better_or_equal(a: float, b: float, higher: bool) -> bool:
    return a >= b if higher else a <= b


def axis_rows(points: list[dict[str, Any]], task: str, axis: Axis) -> list[dict[str, Any]]:
    """The points of ``task`` that have a score and a figure on ``axis``, each with the labels that dominate it."""
    rows = []
    for point in points:
        row = point.get("tasks", {}).get(task)
        if not row or row.get("accuracy") is None:
            continue
        value, interval = _figure(row, axis)
        if value is None or not math.isfinite(value):
            continue
        name = f"{point['method']} {point['label']}" if point.get("method") else point["label"]
        rows.append(
            {
                "label": name,
                "run_dir": point["run_dir"],
                "score": row["accuracy"],
                "score_ci": row["ci"],
                "x": value,
                "x_ci": interval,
            }
        )
    for row in rows:
        row["dominated_by"] = [
            other["label"]
            for other in rows
            if other["score"] >= row["score"]
            and _better_or_equal(other["x"], row["x"], axis.higher_is_better)
            and (other["score"] > row["score"] or other["x"] != row["x"])
        ]
    return rows


def frontiers(points: list[dict[str, Any]]) -> dict[str, dict[str, list[dict[str, Any]]]]:
    """Per task, per axis with at least two points: the rows of :func:`axis_rows`."""
    tasks = sorted({name for point in points for name in point.get("tasks", {})})
    found: dict[str, dict[str, list[dict[str, Any]]]] = {}
    for task in tasks:
        for axis in AXES:
            rows = axis_rows(points, task, axis)
            if len(rows) > 1:
                found.setdefault(task, {})[axis.key] = rows
    return found


def frontier_steps(found: dict[str, dict[str, list[dict[str, Any]]]], seed: int) -> list[dict[str, Any]]:
    """Each step between neighbouring frontier points of each task and axis, compared item by item.

    A step reads ``{"task", "axis", "from", "to", "diff", "ci", "p_value", "p_adjusted", ...}``
    (``frontier compare``'s row for the task; Holm over every step), or ``not_compared`` with the reason.
    """
    from pathlib import Path

    from harness.compare import CompareError, adjust, compare_runs

    words = {axis.key: axis for axis in AXES}
    steps: list[dict[str, Any]] = []
    for task, axes in found.items():
        for key, rows in axes.items():
            front = [row for row in rows if not row["dominated_by"]]
            front.sort(key=lambda row: -row["x"] if words[key].higher_is_better else row["x"])
            for fast, good in itertools.pairwise(front):
                if fast["x"] == good["x"]:  # no trade on this axis: the same figure, the same score
                    continue
                step: dict[str, Any] = {"task": task, "axis": key, "from": fast["label"], "to": good["label"]}
                try:
                    pair = compare_runs([Path(fast["run_dir"]), Path(good["run_dir"])], seed=seed)["pairs"][0]
                    step["tasks"] = {task: pair["tasks"][task]}
                except (CompareError, KeyError) as exc:
                    step["not_compared"] = str(exc)
                steps.append(step)
    adjust([step for step in steps if "tasks" in step], "holm")
    return steps


def step_text(step: dict[str, Any]) -> str:
    """A frontier step in words: the score change from the better figure to the better score."""
    head = f"frontier step {step['task']} on {step['axis']}: {step['from']} -> {step['to']}:"
    row = step.get("tasks", {}).get(step["task"], {})
    if "diff" not in row:
        return f"{head} not compared ({step.get('not_compared', 'no item scored by both')})"
    return f"{head} {row['diff']:+.4f} [{row['ci'][0]:+.4f}, {row['ci'][1]:+.4f}] p={row['p_adjusted']:.3g} (Holm)"


def _number(value: float) -> str:
    return f"{value:.4g}"


def _row_text(row: dict[str, Any]) -> str:
    score = f"{row['score']:.3f}" + (
        f" [{row['score_ci'][0]:.3f}, {row['score_ci'][1]:.3f}]" if row["score_ci"] else ""
    )
    figure = _number(row["x"]) + (f" [{_number(row['x_ci'][0])}, {_number(row['x_ci'][1])}]" if row["x_ci"] else "")
    beaten = f" dominated by {', '.join(row['dominated_by'])}" if row["dominated_by"] else " on the frontier"
    return f"{row['label']}: {score} at {figure};{beaten}"


def frontier_lines(found: dict[str, dict[str, list[dict[str, Any]]]]) -> list[str]:
    """The frontiers in words, one line per task and axis."""
    words = {axis.key: axis for axis in AXES}
    lines = []
    for task, axes in found.items():
        for key, rows in axes.items():
            axis = words[key]
            direction = "higher" if axis.higher_is_better else "lower"
            body = " | ".join(_row_text(row) for row in rows)
            lines.append(f"frontier {task}, score vs {axis.words} ({direction} is better): {body}")
    return lines
