"""``frontier import``: score outputs produced elsewhere as a normal run directory."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import click

from harness.cli.options import parse_key_values
from harness.import_formats import format_help

FORMAT_HELP = format_help()


def formats_epilog(formats: dict[str, str]) -> str:
    """The epilog of ``frontier import``: each format (built-in and declared by families) and examples."""
    width = max(map(len, formats)) + 2
    lines = ["\b", "Inputs (--format, guessed from the suffix or the first line; families add formats):"]
    for name, help_text in formats.items():
        first, *rest = help_text.splitlines()
        lines.append(f"  {name.ljust(width)}{first}")
        lines.extend(f"  {' ' * width}{more}" for more in rest)
    lines += [
        "A sample answered twice, an output for no sample, or (without --allow-missing)",
        "a sample with no output is an error; nothing is scored silently.",
        "",
        "\b",
        "Examples:",
        "  frontier import --task demo/arith --from answers.jsonl --out runs/arith-elsewhere",
        "  frontier import --task demo/arith --from responses.tsv --column model-b --model model-b",
    ]
    return "\n".join(lines) + "\n"


@click.command("import", epilog=formats_epilog(FORMAT_HELP))
@click.option("--task", "task_name", required=True, help="Task whose samples the outputs answer.")
@click.option("-T", "task_arg", multiple=True, metavar="KEY=VALUE", help="Task argument, such as a data location.")
@click.option(
    "--from",
    "source",
    required=True,
    type=click.Path(path_type=Path, dir_okay=False),
    help="File of outputs, in one of the formats below.",
)
@click.option("--format", "fmt", type=click.Choice(list(FORMAT_HELP)), help="Input format (default: guessed).")
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
        fmt=fmt,
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
