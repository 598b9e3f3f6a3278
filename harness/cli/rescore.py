"""``frontier rescore``: re-judge a run's logged outputs with the current scorers, calling no model."""

from __future__ import annotations

from pathlib import Path

import click


@click.command("rescore")
@click.argument("run_dir", type=click.Path(path_type=Path, exists=True, file_okay=False))
def rescore_command(run_dir: Path) -> None:
    """Re-score the log in RUN_DIR with the current scorers (no model is called).

    \b
    Every log a rescore replaces is kept as samples.before-rescore.<n>.jsonl; summary.json
    is rebuilt. A rescore killed at any moment leaves the old or the new log in place.
    Example:
      frontier rescore runs/2026-11-30T10-00-00_smoke_gpt-4o-mini
    """
    from harness.cli.show import print_summary
    from harness.rescore import rescore_run
    from harness.runformat import RunFiles

    rescored, changed = rescore_run(run_dir)
    click.echo(f"rescored {rescored} sample(s); {changed} score(s) changed")
    print_summary(RunFiles(run_dir).read_summary(), run_dir)
