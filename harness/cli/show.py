"""``frontier show``: the summary table of a run."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from harness.types import RunSummary


def _fmt(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"


def _left_out(run_dir: Path | None) -> list[tuple[str, str]]:
    """The suite's tasks the run left out (a missing library), from its config; none when unknown."""
    from harness.runformat import RunFiles, RunFormatError

    if run_dir is None:
        return []
    try:
        entries = RunFiles(run_dir).read_config().get("left_out") or []
    except (OSError, RunFormatError):
        return []
    if not isinstance(entries, list):
        return []
    return [(str(e.get("task")), str(e.get("reason"))) for e in entries if isinstance(e, dict)]


def throughput_line(block: dict[str, object]) -> str:
    """A task's throughput block in one line: aggregate (with its 95% interval), per-request median and p90,
    median latency, requests and warm-up."""

    def rate(key: str) -> str:
        value = block.get(key)
        return f"{value:,.1f}" if isinstance(value, (int, float)) else "-"

    def interval(key: str, digits: int) -> str:
        pair = block.get(key)
        if isinstance(pair, list) and len(pair) == 2 and all(isinstance(v, (int, float)) for v in pair):
            return f" [{pair[0]:,.{digits}f}, {pair[1]:,.{digits}f}]"
        return ""

    latency = block.get("latency_s_median")
    wait = f"; median latency {latency:.3g} s{interval('latency_s_median_ci', 3)}" if isinstance(latency, float) else ""
    return (
        f"{rate('output_tok_s')}{interval('output_tok_s_ci', 1)} output tok/s aggregate{wait}, "
        f"per request median {rate('per_request_tok_s_median')} "
        f"p90 {rate('per_request_tok_s_p90')}; prompt {rate('prompt_tok_s')} tok/s; {block.get('requests')} "
        f"request(s) at concurrency {block.get('concurrency')}, {block.get('warmup_requests')} warm-up excluded "
        f"({block.get('definition')})"
    )


def print_waiting_batches(run_dir: Path | None) -> None:
    """How the run's batched calls were priced, and one line per batch that has not ended: its id,
    adapter and how many requests wait in it."""
    from harness.batch.state import price_notes, waiting_requests

    if run_dir is None:
        return
    for note in price_notes(run_dir):
        click.echo(f"batched calls cost {note}")
    for batch_id, adapter, count, submitted_at in waiting_requests(run_dir):
        click.echo(
            f"batch {batch_id} ({adapter}): {count:,} request(s) waiting since {submitted_at}; "
            f"frontier run --resume --out {run_dir} polls it"
        )


def print_summary(summary: RunSummary, run_dir: Path | None = None) -> None:
    """Print per-task metrics with CIs and counts, tokens and cost, the cached calls and how to retry errors."""
    from rich.console import Console
    from rich.markup import escape
    from rich.table import Table

    title = f"{summary.run_id}  model={summary.model}" + (
        f"  methods={','.join(summary.methods)}" if summary.methods else ""
    )
    # Names come from tasks, metrics and models: "[...]" in them is text, never rich markup.
    table = Table(title=escape(title + ("" if summary.complete else "  [INCOMPLETE]")))
    for column in ("task", "metric", "value", "95% CI", "n", "scored/unscored/error", "tokens in/out", "cost USD"):
        table.add_column(column, justify="left" if column in ("task", "metric") else "right")
    for name, task in summary.tasks.items():
        counts = f"{task.counts.get('scored', 0)}/{task.counts.get('unscored', 0)}/{task.counts.get('error', 0)}"
        tokens = f"{task.usage.input_tokens:,}/{task.usage.output_tokens:,}"
        cost = "unknown" if task.cost_usd is None else f"{task.cost_usd:.4f}" + ("" if task.cost_known else "+?")
        for index, (metric, value) in enumerate(task.metrics.items()):
            first = index == 0
            table.add_row(
                escape(name) if first else "",
                escape(metric),
                _fmt(value.value),
                escape(f"[{_fmt(value.ci_low)}, {_fmt(value.ci_high)}]"),
                str(value.n),
                counts if first else "",
                tokens if first else "",
                cost if first else "",
            )
    Console(width=None if sys.stdout.isatty() else 160).print(table)
    calls = sum(t.calls for t in summary.tasks.values())
    cached = sum(t.cached_calls for t in summary.tasks.values())
    click.echo(f"model calls: {calls:,}, of which {cached:,} answered from the response cache")
    for name, task in summary.tasks.items():
        if task.throughput:
            click.echo(f"throughput of {name}: {throughput_line(task.throughput)}")
    for left_out, reason in _left_out(run_dir):
        click.echo(f"left out of the suite: {left_out} ({reason})")
    print_waiting_batches(run_dir)
    errors = sum(t.counts.get("error", 0) for t in summary.tasks.values())
    if errors:
        where = f" --out {run_dir}" if run_dir is not None else " --out RUN_DIR"
        click.echo(
            f"warning: {errors} sample(s) ended in error; see 'score.explanation' in samples.jsonl. "
            f"Retry them with: frontier run --resume --retry-errors{where}",
            err=True,
        )


@click.command("show")
@click.argument("run_dir", type=click.Path(path_type=Path, exists=True, file_okay=False))
@click.option("--sample", "sample_id", help="Print this sample's transcript, score details and calls instead.")
@click.option("--task", help="With --sample: the task the sample is in (when several tasks share the id).")
@click.option("--failed", is_flag=True, help="List the samples without full marks, each with its one-line reason.")
def show_command(run_dir: Path, sample_id: str | None, task: str | None, failed: bool) -> None:
    """Print the summary table of RUN_DIR: each metric with its 95% CI and n, counts, tokens, cost.

    \b
    Examples:
      frontier show runs/2026-11-30T10-00-00_smoke_builtin-oracle
      frontier show runs/<run> --failed
      frontier show runs/<run> --sample retail-4
    """
    from harness.runformat import RunFiles, RunFormatError

    if sample_id is not None or failed:
        from harness.cli.show_sample import find_sample, print_failed, print_sample

        RunFiles(run_dir).check_version()
        if sample_id is not None:
            print_sample(find_sample(run_dir, sample_id, task))
        else:
            print_failed(run_dir)
        return

    try:
        summary = RunFiles(run_dir).read_summary()
    except RunFormatError:
        print_waiting_batches(run_dir)  # a run killed while waiting for its first batch has no summary yet
        raise
    print_summary(summary, run_dir)
