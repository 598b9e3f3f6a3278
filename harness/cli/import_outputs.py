"""``frontier import``: score outputs produced elsewhere as a normal run directory."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, cast

import click

from harness.cli.options import parse_key_values
from harness.import_formats import FORMATS

if TYPE_CHECKING:
    from harness.import_formats import ImportFormat

EPILOG = """\b
Inputs (--format, guessed from the suffix or the first line):
  jsonl    one {"sample_id": ID, "text": ...} or {"row": N, "text": ...} per line
           (row: the sample's position in the task, counted from 0)
  tsv      a header line, then one row per sample in task order; --column picks
           the text column (a 'sample_id' column, if present, keys rows by id)
  cti-log  CTI-Bench's raw log: '#####<row, counted from 1>#####' then the text
A sample answered twice, an output for no sample, or (without --allow-missing)
a sample with no output is an error; nothing is scored silently.

\b
Examples:
  frontier import --task cyber/cti-mcq -T data=cti-bench --from logs/gpt3/cti-mcq.txt
  frontier import --task cyber/cti-mcq -T data=cti-bench \\
      --from evaluation/responses/cti-mcq-responses.tsv --column ChatGPT-4 --model gpt-4-turbo
  frontier import --task demo/arith --from answers.jsonl --out runs/arith-elsewhere
"""


@click.command("import", epilog=EPILOG)
@click.option("--task", "task_name", required=True, help="Task whose samples the outputs answer.")
@click.option("-T", "task_arg", multiple=True, metavar="KEY=VALUE", help="Task argument, such as a data location.")
@click.option(
    "--from",
    "source",
    required=True,
    type=click.Path(path_type=Path, dir_okay=False),
    help="File of outputs (JSONL, TSV or a CTI-Bench log).",
)
@click.option("--format", "fmt", type=click.Choice(FORMATS), help="Input format (default: guessed).")
@click.option("--column", help="TSV column holding the outputs (needed when there are several).")
@click.option("--model", "label", help="Name of the model that produced the outputs (default: the file name).")
@click.option("--limit", type=click.IntRange(min=1), help="Only the task's first N samples.")
@click.option("--allow-missing", is_flag=True, help="Log samples with no output as errors instead of refusing.")
@click.option("--seed", type=int, default=0, show_default=True, help="Seed of the confidence intervals.")
@click.option(
    "--out", type=click.Path(path_type=Path), help="Run directory (default runs/<time>_<task>_import-<name>)."
)
def import_command(
    task_name: str,
    task_arg: tuple[str, ...],
    source: Path,
    fmt: str | None,
    column: str | None,
    label: str | None,
    limit: int | None,
    allow_missing: bool,
    seed: int,
    out: Path | None,
) -> None:
    """Import outputs produced elsewhere as a run of TASK and score them with the task's scorers."""
    from harness.cli.options import path_slug
    from harness.cli.show import print_summary
    from harness.importing import import_outputs
    from harness.plan import TaskPlan

    plan = TaskPlan(task_name, parse_key_values(task_arg, "-T"), limit)
    if out is None:
        stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H-%M-%S")
        out = Path("runs") / f"{stamp}_{path_slug(task_name)}_import-{path_slug(label or source.stem)}"
    report = import_outputs(
        plan,
        source,
        out,
        label=label,
        fmt=cast("ImportFormat | None", fmt),
        column=column,
        allow_missing=allow_missing,
        seed=seed,
    )
    print_summary(report.summary)
    beyond = f", {report.outside_limit} output(s) beyond --limit left out" if report.outside_limit else ""
    click.echo(
        f"imported {report.written} sample(s) ({report.already_logged} already logged, "
        f"{report.missing} without output{beyond}); run directory: {out}"
    )
