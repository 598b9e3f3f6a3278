"""The site's plots: the jobs drawn per suite and per task, and drawing them (a few milliseconds each,
:mod:`leaderboard.plots`), in the building process."""

from __future__ import annotations

from pathlib import Path
from typing import Any


def suite_plot_jobs(sections: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """Per suite: overall score against tokens and (when every cost is known) against USD."""
    jobs = []
    for section in sections:
        base = f"{section['slug']}"
        if section["token_points"]:
            jobs.append(
                (
                    section["token_points"],
                    f"Suite {section['suite']}: overall score vs tokens",
                    "total tokens (input + output, reasoning billed as output; log scale)",
                    "overall score (0–1)",
                    base + "-tokens",
                )
            )
        if section["usd_points"]:
            jobs.append(
                (
                    section["usd_points"],
                    f"Suite {section['suite']}: overall score vs cost",
                    "cost in USD (log scale)",
                    "overall score (0–1)",
                    base + "-usd",
                )
            )
    return jobs


def task_plot_jobs(tasks: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """Per task (from :func:`task_points`) one plot: against USD when every cost is known, else tokens;
    and the speed plots of :func:`speed_plot_jobs`."""
    jobs = []
    for task in tasks:
        ylabel = f"{task['metric']} (0–1, higher is better)"
        if task["usd_points"]:
            jobs.append(
                (
                    task["usd_points"],
                    f"{task['task']} ({task['suite']})",
                    "cost in USD (log scale)",
                    ylabel,
                    f"task-{task['slug']}",
                )
            )
        elif task["token_points"]:
            jobs.append(
                (
                    task["token_points"],
                    f"{task['task']} ({task['suite']})",
                    "tokens (input + output; log scale)",
                    ylabel,
                    f"task-{task['slug']}",
                )
            )
    return jobs + speed_plot_jobs(tasks)


def speed_plot_jobs(tasks: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """Per task with two or more timed entries: score against output tok/s and against median latency."""
    jobs: list[tuple[Any, ...]] = []
    for task in tasks:
        ylabel = f"{task['metric']} (0–1, higher is better)"
        if len(task["tok_s_points"]) > 1:
            title = f"{task['task']} ({task['suite']}): score vs throughput"
            xlabel = "output tok/s (frontier-throughput/1; log scale, higher is better)"
            jobs.append((task["tok_s_points"], title, xlabel, ylabel, f"task-{task['slug']}-tok-s", True))
        if len(task["latency_points"]) > 1:
            title = f"{task['task']} ({task['suite']}): score vs latency"
            xlabel = "median latency per request in s (log scale, lower is better)"
            jobs.append((task["latency_points"], title, xlabel, ylabel, f"task-{task['slug']}-latency"))
    return jobs


def draw_plots(jobs: list[tuple[Any, ...]], plot_dir: Path) -> int:
    """Draw each job ``(points, title, xlabel, ylabel, name[, reciprocal_x])``; the number of files written."""
    from leaderboard.plots import pareto_plot

    written = 0
    for points, title, xlabel, ylabel, name, *reciprocal in jobs:
        written += len(pareto_plot(points, title, xlabel, ylabel, plot_dir / name, reciprocal_x=bool(reciprocal)))
    return written


def default_workers() -> int:
    """Processes for validating submissions: the CPUs this process may use, at most 8."""
    import os

    return max(1, min(8, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1))
