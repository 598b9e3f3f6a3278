"""Click commands: ``frontier submit``, ``frontier leaderboard validate|build`` and ``frontier report``.

The lead attaches ``submit_command``, ``leaderboard_group`` and ``report_command`` to the
``frontier`` group. Imports of pandas and jinja2 happen inside the commands.
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path
from typing import Any

import click


def _fail(message: str) -> None:
    click.echo(message, err=True)
    sys.exit(1)


@click.command("submit")
@click.argument("run_dirs", nargs=-1, required=True, type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option(
    "-o",
    "--output",
    type=click.Path(dir_okay=False, path_type=Path),
    required=True,
    help="Where to write the submission JSON.",
)
@click.option(
    "--samples/--no-samples",
    default=True,
    show_default=True,
    help="Include the per-sample scores (each sample's outcome and value, for paired comparisons).",
)
def submit_command(run_dirs: tuple[Path, ...], output: Path, samples: bool) -> None:
    """Build a leaderboard submission from one or more run directories."""
    from leaderboard.runs import RunFormatError
    from leaderboard.submission import SubmissionError, build_submission, write_submission
    from leaderboard.validate import validate_submission

    try:
        submission = build_submission(run_dirs, with_samples=samples)
    except (RunFormatError, SubmissionError) as exc:
        _fail(f"error: {exc}")
        return
    issues = validate_submission(submission, str(output))
    if issues:
        _fail("error: the runs do not make a valid submission:\n" + "\n".join(f"  {i}" for i in issues))
    try:
        output.parent.mkdir(parents=True, exist_ok=True)
        write_submission(submission, output)
    except OSError as exc:
        _fail(f"error: cannot write {output}: {exc.strerror or exc}")
    click.echo(
        f"wrote {output}: {submission['model']} · {submission['method']['label']} · {len(submission['tasks'])} task(s)"
    )


@click.group("leaderboard")
def leaderboard_group() -> None:
    """Validate submissions and build the static leaderboard site."""


@leaderboard_group.command("validate")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
def validate_command(files: tuple[Path, ...]) -> None:
    """Validate submission files alone (JSON Schema, semantics) and together (duplicates, versions)."""
    from leaderboard.validate import validate_files

    valid, issues = validate_files(files)
    for issue in issues:
        click.echo(str(issue), err=True)
    click.echo(f"{len(valid)} of {len(files)} submission(s) valid")
    if issues:
        sys.exit(1)


def _submission_files(directory: Path) -> list[Path]:
    return sorted(p for p in directory.rglob("*.json") if p.is_file())


@leaderboard_group.command("build")
@click.argument("submissions_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option(
    "--runs",
    "runs_dir",
    type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="A folder of run directories; their samples feed the sample browser.",
)
@click.option(
    "-o", "--output", type=click.Path(file_okay=False, path_type=Path), required=True, help="The site folder to write."
)
@click.option("--skip-invalid", is_flag=True, help="Leave invalid submissions out instead of failing.")
@click.option(
    "--workers",
    type=click.IntRange(0, 64),
    default=0,
    show_default=True,
    help="Processes that validate the submissions (0: one per CPU, at most 8).",
)
def build_command(submissions_dir: Path, runs_dir: Path | None, output: Path, skip_invalid: bool, workers: int) -> None:
    """Build the static site from every *.json submission under SUBMISSIONS_DIR."""
    from leaderboard.runs import RunFormatError, find_runs, load_run
    from leaderboard.site import SiteError, build_site
    from leaderboard.site_plots import default_workers
    from leaderboard.validate import validate_files

    files = _submission_files(submissions_dir)
    if not files:
        _fail(f"error: no *.json submissions under {submissions_dir}")
    workers = workers or default_workers()
    valid, issues = validate_files(files, workers=workers)
    for issue in issues:
        click.echo(str(issue), err=True)
    if issues and not skip_invalid:
        _fail(f"error: {len(issues)} issue(s); fix them or pass --skip-invalid")
    if not valid:
        _fail("error: no valid submission")
    runs = []
    if runs_dir is not None:
        try:
            found = find_runs(runs_dir)
        except RunFormatError as exc:
            _fail(f"error: {exc}")
        for path in found:
            try:
                runs.append(load_run(path))
            except RunFormatError as exc:
                if not skip_invalid:
                    _fail(f"error: {exc}")
                click.echo(f"skipped run: {exc}", err=True)
    try:
        summary = build_site([data for _, data in valid], output, runs)
    except SiteError as exc:
        _fail(f"error: {exc}")
    click.echo(
        f"wrote {summary.out_dir}/index.html: {summary.submissions} submission(s), {summary.tasks} task "
        f"page(s), {summary.models} model page(s), {summary.plots} plot file(s)"
    )


def _has_samples(log: Path) -> bool:
    """Whether a run's log holds anything but blank space in its first 64 KiB."""
    if not log.is_file():
        return False
    with log.open("rb") as handle:
        return bool(handle.read(65536).strip())


def _report_inputs(run_dirs: tuple[Path, ...], output: Path) -> list[Path]:
    """The run directories to report: folders that are not runs (the site itself, say) skipped with a note.

    A run that logged no sample is refused: a page built from it would show nothing but dashes.
    """
    from harness.runformat import CONFIG_FILE, SAMPLES_FILE, SUMMARY_FILE

    chosen: list[Path] = []
    for run_dir in run_dirs:
        if run_dir.resolve() == output.resolve():
            click.echo(f"note: skipped {run_dir}: it is the output folder", err=True)
            continue
        if not (run_dir / CONFIG_FILE).is_file() and not (run_dir / SUMMARY_FILE).is_file():
            click.echo(f"note: skipped {run_dir}: not a run directory (no {CONFIG_FILE} or {SUMMARY_FILE})", err=True)
            continue
        if not _has_samples(run_dir / SAMPLES_FILE):
            _fail(
                f"error: {run_dir} logged no samples, so there is nothing to report; "
                "rerun it (frontier run --resume --out DIR) or leave it out"
            )
        chosen.append(run_dir)
    if not chosen:
        _fail("error: none of the folders given is a run directory")
    return chosen


def _tell_repeats_apart(submissions: list[dict[str, Any]], run_dirs: list[Path]) -> None:
    """Name the run in the method label of runs that share model, method and suite (seeds or repeats of
    one configuration), so each keeps its own row and pages instead of the last one overwriting the others."""
    from leaderboard.aggregate import submission_id

    counts = Counter(submission_id(data) for data in submissions)
    for data, run_dir in zip(submissions, run_dirs, strict=True):
        if counts[submission_id(data)] > 1:
            data["method"]["label"] = f"{data['method']['label']} · {run_dir.name}"
    counts = Counter(submission_id(data) for data in submissions)
    for data in submissions:  # folders of one name under different parents: the run id tells them apart
        if counts[submission_id(data)] > 1:
            data["method"]["label"] = f"{data['method']['label']} · {data['runs'][0]['run_id']}"


@click.command("report")
@click.argument("run_dirs", nargs=-1, required=True, type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option(
    "-o", "--output", type=click.Path(file_okay=False, path_type=Path), required=True, help="The site folder to write."
)
def report_command(run_dirs: tuple[Path, ...], output: Path) -> None:
    """Build the static site for one or more runs (tables, Pareto plots and the sample browser).

    \b
    Each run becomes one leaderboard entry, so runs of several models side by side compare.
    Folders that are not runs (such as the site folder matched by a glob) are skipped with a note.
    Examples:
      frontier report runs/smoke-oracle -o site/
      frontier report runs/quickstart/* -o runs/quickstart/site
    """
    from leaderboard.runs import RunFormatError, load_run
    from leaderboard.site import SiteError, build_site
    from leaderboard.submission import SubmissionError, build_submission
    from leaderboard.validate import validate_submission

    runs, submissions = [], []
    for run_dir in _report_inputs(run_dirs, output):
        try:
            runs.append(load_run(run_dir))
            submission = build_submission([run_dir])
        except (RunFormatError, SubmissionError) as exc:
            _fail(f"error: {exc}")
            return
        issues = validate_submission(submission, str(run_dir))
        if issues:
            _fail(f"error: the summary of {run_dir} is inconsistent:\n" + "\n".join(f"  {i}" for i in issues))
        submissions.append(submission)
    _tell_repeats_apart(submissions, [run.path for run in runs])
    try:
        summary = build_site(submissions, output, runs, report=True)
    except SiteError as exc:
        _fail(f"error: {exc}")
    click.echo(f"wrote {summary.out_dir}/index.html ({len(submissions)} run(s), {summary.tasks} task page(s))")
    transfer = summary.out_dir / "transfer.html"
    if transfer.is_file():
        click.echo(f"wrote {transfer} (jailbreak attack success, source model x target model)")
