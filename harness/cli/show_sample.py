"""``frontier show RUN --sample ID`` and ``--failed``: one sample's transcript, or the failures, in the terminal."""

from __future__ import annotations

import re
import sys
from collections.abc import Iterator
from pathlib import Path

import click

from harness.errors import ConfigError
from harness.runformat import RunFiles
from harness.runlog import key_parts, winning_lines
from harness.score_view import criteria, verdict
from harness.transcript import WITHOUT_TRANSCRIPTS, call_views, conversation, ending, has_transcript
from harness.types import Message, SampleResult

MAX_SHOWN = 4000
"""Characters of one message printed (the rest is counted)."""
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")


def printable(text: str, limit: int = MAX_SHOWN) -> str:
    """``text`` safe for a terminal: control characters (an ANSI escape in a model's reply) written as
    escapes, and cut at ``limit`` characters saying how many more there were."""
    text = _CONTROL.sub(lambda found: repr(found.group())[1:-1], text)
    return text if len(text) <= limit else text[:limit] + f" … [{len(text) - limit} more characters]"


def failed(result: SampleResult) -> bool:
    """Whether the sample did not get full marks: wrong, partial, unscored or error."""
    return verdict(result.score) != "correct"


def reason(result: SampleResult) -> str:
    """The one-line reason of a sample's score."""
    lines = (result.score.explanation or "").strip().splitlines()
    return printable(lines[0] if lines else "(no explanation)", 160)


def find_sample(run_dir: Path, sample_id: str, task: str | None) -> SampleResult:
    """The logged result of ``sample_id`` (in ``task`` when given); ConfigError naming what is missing or ambiguous.

    Only each line's identity is read to find it; the one record is then parsed whole.
    """
    files = RunFiles(run_dir)
    lines = winning_lines(files.samples_path)
    found = {key_parts(key)[0]: line for key, line in lines.items() if key_parts(key)[1] == sample_id}
    if task is not None:
        found = {name: line for name, line in found.items() if name == task}
    if not found:
        where = f" in task {task}" if task else ""
        raise ConfigError(f"{run_dir}: no sample {sample_id!r}{where} in the log")
    if len(found) > 1:
        raise ConfigError(f"sample {sample_id!r} is in several tasks ({', '.join(found)}); name one with --task")
    return next(iter(files.results(set(found.values()))))


def _message_lines(message: Message) -> Iterator[tuple[str, str]]:
    """(style, text) lines of one message: its text, each tool call with its arguments, the call a result answers."""
    if message.tool_call_id:
        yield "dim", f"result of {printable(message.tool_call_id, 200)}"
    if message.content:
        yield "", printable(message.content)
    for call in message.tool_calls:
        yield "yellow", f"→ {printable(call.name, 200)}({printable(call.arguments)})  [{printable(call.id, 200)}]"


ROLE_STYLE = {"system": "magenta", "user": "cyan", "assistant": "green", "tool": "yellow"}


def print_sample(result: SampleResult) -> None:
    """The sample's conversation, score criteria and calls, with rich (every text escaped, never markup)."""
    from rich.console import Console
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

    console = Console(width=None if sys.stdout.isatty() else 160, highlight=False)
    score = result.score
    header = Text(f"{result.task} / {result.sample_id}: {verdict(result.score)}", style="bold")
    if score.value is not None:
        header.append(f"  score {score.value:g}")
    console.print(header)
    if not has_transcript(result):
        console.print(Text(f"({WITHOUT_TRANSCRIPTS}: the input and final output are shown)", style="dim"))
    shown = conversation(result)
    stop = ending(result, shown)
    for number, message in enumerate(shown, 1):
        body = Text()
        for style, line in _message_lines(message):
            body.append(line + "\n", style=style)
        body.rstrip()
        title = Text(message.role)
        if stop is not None and number == len(shown):
            title.append(f" · ends the conversation ({printable(stop, 200)})", style="bold red")
        console.print(Panel(body, title=title, title_align="left", border_style=ROLE_STYLE[message.role]))
    console.print(Text(f"answer: {printable(score.answer or '-', 400)}"))
    console.print(Text(f"explanation: {printable(score.explanation or '-', 1000)}"))
    rows = criteria(score.details)
    if rows:
        table = Table(title="score details")
        for column in ("criterion", "value", "held"):
            table.add_column(column)
        for row in rows:
            held = "" if row.held is None else "✓" if row.held else "✗"
            table.add_row(Text(printable(row.name, 200)), Text(printable(row.value, 600)), held)
        console.print(table)
    calls = Table(title=f"calls ({len(result.calls)})")
    for column in ("#", "role", "messages", "reply", "tokens in/out", "cost USD", "latency s", "note"):
        calls.add_column(column, justify="right" if column in ("#", "messages", "latency s") else "left")
    for call in call_views(result):
        reply = call.reply.content or ", ".join(c.name for c in call.reply.tool_calls) or ""
        note = ", ".join(word for word, on in (("selected", call.selected), ("cached", call.cached)) if on) + (
            f", {call.retries} retries" if call.retries else ""
        )
        calls.add_row(
            str(call.number),
            Text(printable(call.role, 40)),
            "-" if call.messages is None else str(call.messages),
            Text(printable(reply, 80)),
            f"{call.input_tokens:,}/{call.output_tokens:,}",
            "-" if call.cost_usd is None else f"{call.cost_usd:.6f}",
            f"{call.latency_s:.2f}",
            note.strip(", "),
        )
    console.print(calls)
    notes = criteria(result.method_data)
    if notes:
        table = Table(title="method notes (votes, selection, allocation, step scores...)")
        for column in ("note", "value"):
            table.add_column(column)
        for row in notes:
            table.add_row(Text(printable(row.name, 200)), Text(printable(row.value, 600)))
        console.print(table)


def print_failed(run_dir: Path) -> None:
    """One line per sample that did not get full marks: task, id, verdict and the reason."""
    count = 0
    for result in RunFiles(run_dir).results():
        if failed(result):
            count += 1
            click.echo(f"{result.task}  {printable(result.sample_id, 200)}  {verdict(result.score)}  {reason(result)}")
    click.echo(f"{count:,} sample(s) without full marks" if count else "every sample got full marks")
