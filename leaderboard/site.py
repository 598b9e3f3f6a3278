"""Build the static leaderboard site from validated submissions (and optionally their runs).

The site is plain files that work opened from ``file://``: ``index.html`` (sortable tables
per suite), ``tasks/*.html``, ``models/*.html``, ``vs/*.html`` (two submissions head to head),
``samples/*.html`` (when runs are given), ``plots/*.png|svg``, ``static/`` (CSS and the sorting
script, no CDN) and a JSON export ``leaderboard.json``. Templates autoescape everything; pages
carry a Content Security Policy that allows only the site's own script, styles and images.
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
from leaderboard.outputs import reusing, write_output
from leaderboard.runs import RunDir
from leaderboard.samples_pages import PAGE_SIZE, write_sample_pages
from leaderboard.site_env import PACKAGE, environment, package_version
from leaderboard.site_plots import draw_plots, suite_plot_jobs, task_plot_jobs
from leaderboard.views import model_sections, records, slug, suite_sections, task_points, task_sections
from leaderboard.vs_pages import write_vs_pages

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
        "pareto": {
            "overall": {s["suite"]: s["standings"] for s in sections},
            "tasks": [{"suite": t["suite"], "task": t["task"], "standings": t["standings"]} for t in task_pages],
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
    report: bool = False,
) -> SiteSummary:
    """Write the site for validated ``submissions`` into ``out_dir``; ``runs`` feed the sample browser.

    ``report`` titles the pages for ``frontier report`` (a report of runs) rather than a leaderboard
    of submissions.

    The site is built in a fresh folder beside ``out_dir`` and swapped in whole, so no page of an
    earlier build survives; a folder that is not an earlier site is never replaced.
    """
    if not submissions:
        raise ValueError("no submissions to build a site from")
    target = Path(out_dir)
    _check_replaceable(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(dir=target.parent, prefix=f".{target.name}.building-"))
    try:
        with _one_blas_thread(), reusing(staging, target if target.is_dir() else None):
            summary = _build_into(staging, submissions, runs, page_size, report)
        _swap_in(staging, target)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    return replace(summary, out_dir=target)


def _one_blas_thread() -> Any:
    """A context in which BLAS runs on one thread: the build's matrix products (thousands of bootstrap
    intervals and paired tests) are small, and on a busy machine BLAS's threads waiting for each other cost
    several times the products' own CPU time."""
    import numpy  # noqa: F401  (loaded first: the limit applies to the BLAS libraries loaded when it is set)
    from threadpoolctl import threadpool_limits

    return threadpool_limits(limits=1, user_api="blas")


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
    out: Path, submissions: list[dict[str, Any]], runs: Sequence[RunDir], page_size: int, report: bool
) -> SiteSummary:
    """Write every page, plot and the JSON export into the fresh folder ``out``."""
    for sub in ("tasks", "models", "samples", "plots"):
        (out / sub).mkdir(parents=True, exist_ok=True)
    shutil.copytree(PACKAGE / "static", out / "static", dirs_exist_ok=True)
    env = environment()
    common = {
        "generator_version": package_version(),
        "n_submissions": len(submissions),
        "site_title": "Report" if report else "Leaderboard",
        "entries": "run(s)" if report else "submission(s)",
    }

    points = task_points(submissions)
    plots = draw_plots(task_plot_jobs(points), out / "plots")
    samples_links, browsed_tasks, runs_of = _write_samples(env, out, common, submissions, runs, page_size)
    tasks = task_rows(submissions)
    task_pages = task_sections(submissions, tasks, samples_links, points)
    families, overall = overall_rows(submissions, tasks)
    sections = suite_sections(submissions, overall, families)
    plots += draw_plots(suite_plot_jobs(sections), out / "plots")
    models = model_sections(submissions, overall)
    vs_template = env.get_template("vs.html")
    ranking = {section["suite"]: [row["submission"] for row in section["rows"]] for section in sections}
    pair_template = env.get_template("sample_pair.html")
    vs_links = write_vs_pages(
        out,
        submissions,
        ranking,
        samples_links,
        lambda ctx: vs_template.render(root="../", **common, **ctx),
        runs_of,
        lambda ctx: pair_template.render(root="../../", **common, **ctx),
    )
    for section in sections:
        section["vs"] = vs_links.get(section["suite"], [])
    from leaderboard.transfer import write_transfer_page

    transfer = write_transfer_page(runs, out)
    linked = {**common, "transfer_page": transfer.name if transfer else None}
    _write_pages(env, out, linked, sections, task_pages, models)
    write_output(
        out / "leaderboard.json",
        json.dumps(
            _export(submissions, tasks, families, overall, sections, task_pages), allow_nan=False, separators=(",", ":")
        ),
    )
    return SiteSummary(out, len(submissions), len(task_pages), len(models), browsed_tasks, plots)


def _write_samples(
    env: Any,
    out: Path,
    common: dict[str, Any],
    submissions: list[dict[str, Any]],
    runs: Sequence[RunDir],
    page_size: int,
) -> tuple[dict[tuple[str, str], str], int, dict[tuple[str, str], RunDir]]:
    """The sample browser's pages; returns each (submission, task)'s first page, how many tasks have one and
    the run each (submission, task) was read from."""
    samples_links: dict[tuple[str, str], str] = {}
    runs_of: dict[tuple[str, str], RunDir] = {}
    browsed = 0
    by_run = {run.summary.run_id: run for run in runs}
    template = env.get_template("samples.html")

    def render_page(name: str, context: dict[str, Any]) -> str:
        return env.get_template(name).render(root="../../" if name == "sample.html" else "../", **common, **context)

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
                render_page,
            )
            browsed += len(links)
            samples_links.update({(sid, task): link for task, link in links.items()})
            runs_of.update({(sid, task): run for task in links})
    return samples_links, browsed, runs_of


def _write_pages(
    env: Any,
    out: Path,
    common: dict[str, Any],
    sections: list[dict[str, Any]],
    task_pages: list[dict[str, Any]],
    models: list[dict[str, Any]],
) -> None:
    write_output(
        out / "index.html",
        env.get_template("index.html").render(root="", sections=sections, tasks=task_pages, models=models, **common),
    )
    task_template = env.get_template("task.html")
    for section in task_pages:
        write_output(
            out / "tasks" / f"{section['slug']}.html", task_template.render(root="../", section=section, **common)
        )
    model_template = env.get_template("model.html")
    for section in models:
        write_output(
            out / "models" / f"{section['slug']}.html", model_template.render(root="../", section=section, **common)
        )


__all__ = ["SiteError", "SiteSummary", "build_site", "environment", "slug"]
