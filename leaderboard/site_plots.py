"""The site's plots: the jobs drawn per suite and per task, and the process pool that draws them
while the pages are rendered (workers forked from a fork server that has imported matplotlib)."""

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


def _draw(jobs: list[tuple[Any, ...]], plot_dir: Path) -> int:
    """Draw each job ``(points, title, xlabel, ylabel, name[, reciprocal_x])``; the number of files written."""
    from leaderboard.plots import pareto_plot

    written = 0
    for points, title, xlabel, ylabel, name, *reciprocal in jobs:
        written += len(pareto_plot(points, title, xlabel, ylabel, plot_dir / name, reciprocal_x=bool(reciprocal)))
    return written


def plot_context() -> Any:
    """The multiprocessing context that plot workers come from: a fork server that has imported
    matplotlib and built a canvas (:mod:`leaderboard.plot_preload`) before forking any worker.

    Calling this early (``frontier leaderboard build`` does, before validating) starts that
    server, so its imports overlap the caller's own work.
    """
    import multiprocessing
    from multiprocessing import forkserver

    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["leaderboard.plot_preload"])
    forkserver.ensure_running()
    return context


def _workers_died() -> RuntimeError:
    return RuntimeError(
        "the plot worker processes died; a script that builds the site with workers > 1 must "
        'call it under `if __name__ == "__main__":` (the workers import the main module, as '
        "with any spawned process), or pass workers=1"
    )


class Plotter:
    """Draws plot jobs as they become known: in a process pool while the caller renders pages,
    or in this process at :meth:`finish` when ``workers`` is 1."""

    def __init__(self, plot_dir: Path, workers: int) -> None:
        self._dir = plot_dir
        self._pending: list[tuple[Any, ...]] = []
        self._futures: list[Any] = []
        self._pool = None
        if workers > 1:
            from concurrent.futures import ProcessPoolExecutor

            self._pool = ProcessPoolExecutor(max_workers=workers, mp_context=plot_context())

    def submit(self, jobs: list[tuple[Any, ...]]) -> None:
        """Queue ``jobs`` (drawn at once in the pool, or at :meth:`finish` without one)."""
        if self._pool is None:
            self._pending += jobs
            return
        from concurrent.futures.process import BrokenProcessPool

        try:
            self._futures += [self._pool.submit(_draw, [job], self._dir) for job in jobs]
        except BrokenProcessPool:
            raise _workers_died() from None

    def finish(self) -> int:
        """Wait for every plot; returns the number of files written."""
        if self._pool is None:
            return _draw(self._pending, self._dir)
        from concurrent.futures.process import BrokenProcessPool

        try:
            return sum(future.result() for future in self._futures)
        except BrokenProcessPool:
            raise _workers_died() from None

    def close(self) -> None:
        """Stop the pool (cancelling what has not started, after an error)."""
        if self._pool is not None:
            self._pool.shutdown(cancel_futures=True)


def default_workers() -> int:
    """Processes for validating and drawing plots: the CPUs this process may use, at most 8."""
    import os

    return max(1, min(8, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1))
