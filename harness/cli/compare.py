"""``frontier compare``: two or more runs of the same tasks, compared item by item with paired statistics."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click

from harness.paired import MIN_CLUSTERS


def _num(value: float | None, digits: int = 4) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _p(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.2g}" if value < 0.001 else f"{value:.3f}"


def _trials(row: dict[str, Any]) -> str:
    """Trials and flip rates, when either run repeated items."""
    if max(row["trials_a"], row["trials_b"]) <= 1:
        return ""
    flips = f"{_num(row['flip_rate_a'], 2)}/{_num(row['flip_rate_b'], 2)}"
    return f"trials {row['trials_a']}/{row['trials_b']}, flip rate (share of items whose trials disagree) {flips}"


def print_pair(pair: dict[str, Any], adjustment: str) -> None:
    """One pair's table: per task (and the suite) the means, B − A with its CI, SEs, test, p-values and MDE."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    table = Table(title=escape(f"A = {pair['run_a']}   B = {pair['run_b']}"))
    columns = ("task", "metric", "A", "B", "B − A", "95% CI", "SE paired/unpaired", "test", "p", f"p {adjustment}")
    for column in (*columns, "n paired", "MDE"):
        table.add_column(column, justify="left" if column in ("task", "metric", "test") else "right")
    rows = list(pair["tasks"].items()) + ([("suite (mean over tasks)", pair["suite"])] if "suite" in pair else [])
    for name, row in rows:
        if "diff" not in row:
            table.add_row(escape(name), escape(row["metric"]), *["-"] * 8, "0", "-")
            continue
        clusters = f" ({row['clusters']} clusters)" if row.get("clusters") else ""
        table.add_row(
            escape(name),
            escape(row.get("metric", "") + ("" if row.get("higher_is_better", True) else " (lower is better)")),
            _num(row["a"]),
            _num(row["b"]),
            f"{row['diff']:+.4f}",
            escape(f"[{row['ci'][0]:+.4f}, {row['ci'][1]:+.4f}]"),
            f"{_num(row['se_paired'])}/{_num(row['se_unpaired'])}",
            escape(row["test"] + clusters),
            _p(row["p_value"]),
            _p(row["p_adjusted"]),
            str(row["n_paired"]),
            _num(row["mde"]),
        )
    Console(width=None if sys.stdout.isatty() else 200).print(table)
    for name, row in pair["tasks"].items():
        notes = [f"{row['metric']}: {row['metric_rule']}" if row["metric_rule"] else row["metric"]]
        if row["only_a"] or row["only_b"] or row["no_value"]:
            notes.append(
                f"left out: {row['only_a']} item(s) only in A, {row['only_b']} only in B, "
                f"{row['no_value']} without a value on a side"
            )
        if row.get("items_needed"):
            notes.append(f"not significant; about {row['items_needed']:,} items would detect a difference this size")
        if row.get("clusters_declared") and not row.get("clusters"):
            notes.append(
                f"{row['clusters_declared']} cluster(s) declared, too few to resample (under {MIN_CLUSTERS}): "
                "items resampled one by one"
            )
        if _trials(row):
            notes.append(_trials(row))
        if row.get("discordant_count"):
            shown = ", ".join(row["discordant"][:5]) + (", ..." if row["discordant_count"] > 5 else "")
            notes.append(
                f"{row['discordant_count']} item(s) scored differently ({shown}): "
                "frontier report RUN_A RUN_B -o SITE shows each side by side from its head-to-head page"
            )
        click.echo(f"{name}: " + "; ".join(notes))
    for side, names in (("A", pair["only_in_a"]), ("B", pair["only_in_b"])):
        if names:
            click.echo(f"tasks only in {side}, not compared: {', '.join(names)}")


@click.command("compare")
@click.argument("runs", nargs=-1, required=True, type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.option("--json", "as_json", is_flag=True, help="Print the comparison as JSON.")
@click.option("--seed", default=0, show_default=True, help="Seed of the bootstrap and sign-flip draws.")
@click.option(
    "--adjust",
    type=click.Choice(["holm", "bh"]),
    default="holm",
    show_default=True,
    help="Multiple-comparison adjustment over every (pair, task) test: Holm (family-wise) or Benjamini–Hochberg.",
)
def compare_command(runs: tuple[Path, ...], as_json: bool, seed: int, adjust: str) -> None:
    """Compare RUN_A RUN_B [RUN_C ...] on the items they share, per task and for the suite.

    \b
    For each pair of runs and each task both ran: the difference B − A of the task's metric
    over the items both scored, its 95% CI (paired bootstrap over items, or over clusters where
    the task declares them), a p-value (exact McNemar for right/wrong scores, a sign-flip test
    otherwise), the standard error paired and unpaired, and the smallest difference this many
    items could detect with 80% power. Items with several trials count once, at their mean.
    Example:
      frontier compare runs/gpt-4o-mini runs/gpt-4o --json
    """
    from harness.compare import compare_runs

    result = compare_runs(list(runs), seed=seed, adjustment="bh" if adjust == "bh" else "holm")
    if as_json:
        click.echo(json.dumps(result, indent=2))
        return
    for pair in result["pairs"]:
        print_pair(pair, adjust)
    if len(result["pairs"]) > 1 or any(len(pair["tasks"]) > 1 for pair in result["pairs"]):
        click.echo(f"p {adjust}: adjusted over all {sum(len(p['tasks']) for p in result['pairs'])} task comparisons")
