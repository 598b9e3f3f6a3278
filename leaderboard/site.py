"""Build the static leaderboard site from validated submissions (and optionally their runs).

The site is plain files that work opened from ``file://``: ``index.html`` (sortable tables
per suite), ``tasks/*.html``, ``models/*.html``, ``samples/*.html`` (when runs are given),
``plots/*.png|svg``, ``static/`` (CSS and the sorting script, no CDN) and a JSON export
``leaderboard.json``. Templates autoescape everything; pages carry a Content Security Policy
that allows only the site's own script, styles and images.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from leaderboard.aggregate import overall_rows, submission_id, task_rows
from leaderboard.runs import RunDir
from leaderboard.samples_pages import PAGE_SIZE, write_sample_pages
from leaderboard.views import model_sections, records, slug, suite_sections, task_points, task_sections

PACKAGE = Path(__file__).parent
GENERATOR_VERSION = "1"


class SiteError(ValueError):
    """The site cannot be written where it was asked to be."""


@dataclass(frozen=True)
class SiteSummary:
    """What a build wrote."""

    out_dir: Path
    submissions: int
    tasks: int
    models: int
    browsed_tasks: int
    plots: int


def _num(value: Any, digits: int = 3) -> str:
    if value is None:
        return "–"
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return str(value)
    return f"{value:.{digits}f}"


def _tokens(value: Any) -> str:
    if value is None:
        return "–"
    value = float(value)
    for unit, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if abs(value) >= size:
            return f"{value / size:.1f}{unit}"
    return f"{value:.0f}"


def _ci(low: Any, high: Any, digits: int = 3) -> Any:
    """A confidence interval as markup (numbers only, so nothing to escape)."""
    from markupsafe import Markup

    if not isinstance(low, (int, float)) or not isinstance(high, (int, float)):
        return ""
    return Markup(f'<span class="ci">[{float(low):.{int(digits)}f}, {float(high):.{int(digits)}f}]</span>')


def _usd(value: Any) -> str:
    if value is None:
        return "–"
    return f"{value:.4f}" if value < 1 else f"{value:,.2f}"


def package_version() -> str:
    """The installed frontier-evals version (the one the footer and every page show)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("frontier-evals")
    except PackageNotFoundError:
        return "(not installed)"


def _breakable(text: Any) -> Any:
    """Untrusted text, escaped, with break opportunities only after ``/ - @ : . _``, so a long model
    name wraps at its own separators and never inside a word."""
    import re

    from markupsafe import Markup, escape

    return Markup(re.sub(r"([/\-@:._])", r"\1<wbr>", str(escape(str(text)))))


def environment() -> Any:
    """The jinja2 environment: package templates, autoescaping on for every template."""
    import jinja2

    class RecordEnvironment(jinja2.Environment):
        """``row.field`` looked up as a dict key first: the pages' rows are dicts, and Jinja's default
        (attribute first, then key after an AttributeError) costs an exception per field."""

        def getattr(self, obj: Any, attribute: str) -> Any:
            if type(obj) is dict and attribute in obj:
                return obj[attribute]
            return super().getattr(obj, attribute)

    env = RecordEnvironment(
        loader=jinja2.FileSystemLoader(str(PACKAGE / "templates")),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=False,
        lstrip_blocks=False,
    )
    from leaderboard.glossary import define, glossary

    env.filters.update(num=_num, tokens=_tokens, usd=_usd, define=define, breakable=_breakable)
    env.globals.update(ci=_ci, glossary=glossary)
    return env


def _suite_plot_jobs(sections: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
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


def _task_plot_jobs(tasks: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """Per task (from :func:`task_points`) one plot: against USD when every cost is known, else tokens."""
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
    return jobs


def _draw(jobs: list[tuple[Any, ...]], plot_dir: Path) -> int:
    from leaderboard.plots import pareto_plot

    return sum(
        len(pareto_plot(points, title, xlabel, ylabel, plot_dir / name)) for points, title, xlabel, ylabel, name in jobs
    )


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


class _Plotter:
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


def _export(
    submissions: list[dict[str, Any]],
    tasks: Any,
    families: Any,
    overall: Any,
    sections: list[dict[str, Any]],
    task_pages: list[dict[str, Any]],
) -> dict[str, Any]:
    return {
        "generator": f"frontier-evals leaderboard {GENERATOR_VERSION}",
        "overall": records(overall),
        "families": records(families),
        "tasks": records(tasks),
        "frontier_areas": {
            "overall": {s["suite"]: s["areas"] for s in sections},
            "tasks": [{"suite": t["suite"], "task": t["task"], "areas": t["areas"]} for t in task_pages],
        },
        "submissions": [
            {k: v for k, v in d.items() if k != "tasks"}
            | {
                "tasks": {
                    name: {k: v for k, v in entry.items() if k != "samples"} for name, entry in d["tasks"].items()
                }
            }
            for d in submissions
        ],
    }


def build_site(
    submissions: list[dict[str, Any]],
    out_dir: str | Path,
    runs: Sequence[RunDir] = (),
    page_size: int = PAGE_SIZE,
    workers: int = 1,
) -> SiteSummary:
    """Write the site for validated ``submissions`` into ``out_dir``; ``runs`` feed the sample browser.

    ``workers`` > 1 draws the plots in that many processes, forked from a warm fork server
    (:func:`plot_context`) and fed each plot as soon as its data is known. The site is built
    in a fresh folder beside ``out_dir`` and swapped in whole, so no page of an earlier build
    survives; a folder that is not an earlier site is never replaced.
    """
    if not submissions:
        raise ValueError("no submissions to build a site from")
    target = Path(out_dir)
    _check_replaceable(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}.building-"))
    try:
        summary = _build_into(staging, submissions, runs, page_size, workers)
        _swap_in(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return replace(summary, out_dir=target)


SITE_MARKER = "leaderboard.json"


def _check_replaceable(target: Path) -> None:
    """A build replaces ``target`` whole: allowed when it is absent, empty, or a site an earlier build wrote."""
    if not target.exists():
        return
    if not target.is_dir():
        raise SiteError(f"{target} exists and is not a directory")
    if any(target.iterdir()) and not (target / SITE_MARKER).is_file():
        raise SiteError(
            f"{target} is neither empty nor a site built before (no {SITE_MARKER}); "
            "refusing to replace it - choose another output folder"
        )


def _swap_in(staging: Path, target: Path) -> None:
    """Put the freshly built ``staging`` in place of ``target``; the old site (stale pages and all) is removed."""
    old = None
    if target.exists():
        old = target.with_name(f".{target.name}.old-{os.getpid()}")
        shutil.rmtree(old, ignore_errors=True)
        os.replace(target, old)
    os.replace(staging, target)
    if old is not None:
        shutil.rmtree(old, ignore_errors=True)


def _build_into(
    out: Path, submissions: list[dict[str, Any]], runs: Sequence[RunDir], page_size: int, workers: int
) -> SiteSummary:
    """Write every page, plot and the JSON export into the fresh folder ``out``."""
    for sub in ("tasks", "models", "samples", "plots"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    shutil.copytree(PACKAGE / "static", out / "static", dirs_exist_ok=True)
    env = environment()
    common = {"generator_version": package_version(), "n_submissions": len(submissions)}

    plotter = _Plotter(out / "plots", workers)
    try:
        points = task_points(submissions)
        plotter.submit(_task_plot_jobs(points))
        samples_links, browsed_tasks = _write_samples(env, out, common, submissions, runs, page_size)
        tasks = task_rows(submissions)
        task_pages = task_sections(submissions, tasks, samples_links, points)
        families, overall = overall_rows(submissions, tasks)
        sections = suite_sections(submissions, overall, families)
        plotter.submit(_suite_plot_jobs(sections))
        models = model_sections(submissions, overall)
        _write_pages(env, out, common, sections, task_pages, models)
        (out / "leaderboard.json").write_text(
            json.dumps(
                _export(submissions, tasks, families, overall, sections, task_pages),
                allow_nan=False,
                separators=(",", ":"),
            ),
            encoding="utf-8",
        )
        plots = plotter.finish()
    finally:
        plotter.close()
    return SiteSummary(out, len(submissions), len(task_pages), len(models), browsed_tasks, plots)


def _write_samples(
    env: Any,
    out: Path,
    common: dict[str, Any],
    submissions: list[dict[str, Any]],
    runs: Sequence[RunDir],
    page_size: int,
) -> tuple[dict[tuple[str, str], str], int]:
    """The sample browser's pages; returns each (submission, task)'s first page and how many tasks have one."""
    samples_links: dict[tuple[str, str], str] = {}
    browsed = 0
    by_run = {run.summary.run_id: run for run in runs}
    template = env.get_template("samples.html")
    for data in submissions:
        sid = submission_id(data)
        for entry in data["runs"]:
            run = by_run.get(entry["run_id"])
            if run is None:
                continue
            wanted = set(data["tasks"]) & set(run.summary.tasks)
            links = write_sample_pages(
                run,
                sid,
                data["suite"]["name"],
                wanted,
                out,
                lambda ctx: template.render(root="../", **common, **ctx),
                page_size,
            )
            browsed += len(links)
            samples_links.update({(sid, task): link for task, link in links.items()})
    return samples_links, browsed


def _write_pages(
    env: Any,
    out: Path,
    common: dict[str, Any],
    sections: list[dict[str, Any]],
    task_pages: list[dict[str, Any]],
    models: list[dict[str, Any]],
) -> None:
    (out / "index.html").write_text(
        env.get_template("index.html").render(root="", sections=sections, tasks=task_pages, models=models, **common),
        encoding="utf-8",
    )
    task_template = env.get_template("task.html")
    for section in task_pages:
        (out / "tasks" / f"{section['slug']}.html").write_text(
            task_template.render(root="../", section=section, **common), encoding="utf-8"
        )
    model_template = env.get_template("model.html")
    for section in models:
        (out / "models" / f"{section['slug']}.html").write_text(
            model_template.render(root="../", section=section, **common), encoding="utf-8"
        )


__all__ = ["SiteSummary", "build_site", "environment", "slug"]
