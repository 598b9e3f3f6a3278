"""Reading the upstream behaviour files in their own column layouts.

Each format is the benchmark's published CSV, read with :mod:`csv` (``utf-8-sig``, quoted fields
may span lines): AdvBench ``harmful_behaviors.csv`` (``goal,target``), HarmBench
``harmbench_behaviors_text_all.csv`` (``Behavior,FunctionalCategory,SemanticCategory,Tags,
ContextString,BehaviorID``), JBB-Behaviors ``harmful-behaviors.csv`` / ``benign-behaviors.csv``
(``Index,Goal,Target,Behavior,Category,Source``), StrongREJECT ``strongreject_dataset.csv``
(``category,source,forbidden_prompt``), XSTest ``xstest_prompts.csv`` (``id,prompt,type,label,
focus,note``) and OR-Bench (``prompt,category``). Nothing is bundled: a task without
``-T behaviors=`` says in one line where the file is published.
"""

from __future__ import annotations

import csv
import io
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from harness.api import ConfigError

log = logging.getLogger("tasks.jailbreak")
MAX_BEHAVIOR_FILE_BYTES = 64 * 1024 * 1024
MAX_FIELD_CHARS = 1_000_000


@dataclass(frozen=True)
class Behavior:
    """One behaviour: its id, the request text, HarmBench's context (or ""), its category and other columns."""

    id: str
    text: str
    category: str = ""
    context: str = ""
    extra: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class BehaviorFormat:
    """A file layout: the columns it must have and how a row becomes a behaviour (None: left out, with a reason)."""

    name: str
    required: tuple[str, ...]
    row: Callable[[int, dict[str, str]], Behavior | str]
    published: str


def _advbench(index: int, row: dict[str, str]) -> Behavior | str:
    return Behavior(str(index), row["goal"], extra={"target": row["target"]})


def _harmbench(index: int, row: dict[str, str]) -> Behavior | str:
    if row["FunctionalCategory"].strip() == "copyright":
        return "copyright behaviours are judged by HarmBench's hash check, not a classifier prompt"
    return Behavior(
        row["BehaviorID"].strip() or str(index),
        row["Behavior"],
        category=row["SemanticCategory"],
        context=row.get("ContextString") or "",
        extra={"functional_category": row["FunctionalCategory"], "tags": row.get("Tags") or ""},
    )


def _jbb(index: int, row: dict[str, str]) -> Behavior | str:
    name = row["Behavior"].strip()
    return Behavior(
        name or str(index), row["Goal"], category=row["Category"], extra={"target": row.get("Target") or ""}
    )


def _strongreject(index: int, row: dict[str, str]) -> Behavior | str:
    return Behavior(str(index), row["forbidden_prompt"], category=row["category"], extra={"source": row["source"]})


def _xstest(index: int, row: dict[str, str]) -> Behavior | str:
    label = (row.get("label") or "").strip().lower()
    kind = row["type"].strip()
    if label == "unsafe" or (not label and kind.startswith("contrast")):
        return "an unsafe contrast prompt (over-refusal counts the safe prompts only)"
    return Behavior((row.get("id") or "").strip() or str(index), row["prompt"], category=kind)


def _orbench(index: int, row: dict[str, str]) -> Behavior | str:
    return Behavior(str(index), row["prompt"], category=row["category"])


FORMATS: dict[str, BehaviorFormat] = {
    f.name: f
    for f in (
        BehaviorFormat(
            "advbench",
            ("goal", "target"),
            _advbench,
            "https://raw.githubusercontent.com/llm-attacks/llm-attacks/main/data/advbench/harmful_behaviors.csv",
        ),
        BehaviorFormat(
            "harmbench",
            ("Behavior", "FunctionalCategory", "SemanticCategory", "BehaviorID"),
            _harmbench,
            "https://raw.githubusercontent.com/centerforaisafety/HarmBench/main/data/behavior_datasets/"
            "harmbench_behaviors_text_all.csv",
        ),
        BehaviorFormat(
            "jbb",
            ("Goal", "Behavior", "Category"),
            _jbb,
            "https://huggingface.co/datasets/JailbreakBench/JBB-Behaviors (data/harmful-behaviors.csv)",
        ),
        BehaviorFormat(
            "strongreject",
            ("category", "source", "forbidden_prompt"),
            _strongreject,
            "https://raw.githubusercontent.com/alexandrasouly/strongreject/main/strongreject_dataset/"
            "strongreject_dataset.csv",
        ),
        BehaviorFormat(
            "xstest",
            ("prompt", "type"),
            _xstest,
            "https://raw.githubusercontent.com/paul-rottger/xstest/main/xstest_prompts.csv",
        ),
        BehaviorFormat(
            "orbench", ("prompt", "category"), _orbench, "https://huggingface.co/datasets/bench-llm/or-bench"
        ),
    )
}
OVER_REFUSAL_FORMATS = ("xstest", "orbench", "jbb")


def _read_rows(path: Path) -> tuple[list[str], list[dict[str, str]]]:
    """The header and rows of a CSV file; ConfigError naming the file when it cannot be read."""
    try:
        size = path.stat().st_size
    except OSError as exc:
        raise ConfigError(f"behaviours file {path}: {exc.strerror or exc}") from None
    if size > MAX_BEHAVIOR_FILE_BYTES:
        raise ConfigError(f"behaviours file {path}: {size:,} bytes is over the {MAX_BEHAVIOR_FILE_BYTES:,}-byte limit")
    try:
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"behaviours file {path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None
    csv.field_size_limit(MAX_FIELD_CHARS)
    reader = csv.DictReader(io.StringIO(text, newline=""))
    try:
        rows = [{k or "": v or "" for k, v in row.items() if isinstance(v, str)} for row in reader]
    except csv.Error as exc:
        raise ConfigError(f"behaviours file {path}: line {reader.line_num}: not readable as CSV ({exc})") from None
    return [name.strip() for name in reader.fieldnames or []], rows


def guess_format(header: Sequence[str], allowed: Sequence[str]) -> str | None:
    """The first of ``allowed`` formats whose required columns are all in ``header``."""
    present = set(header)
    return next((name for name in allowed if set(FORMATS[name].required) <= present), None)


def load_behaviors(path: Path, allowed: Sequence[str], task: str) -> list[Behavior]:
    """The behaviours of ``path`` in one of the ``allowed`` layouts (told apart by their columns).

    A row with an empty request is skipped and counted in a warning; so is a row the format
    leaves out (HarmBench's copyright behaviours, XSTest's unsafe contrast prompts). ConfigError
    when no layout fits, naming the columns each needs, or when two rows share an id.
    """
    header, rows = _read_rows(path)
    chosen = guess_format(header, allowed)
    if chosen is None:
        needs = "; ".join(f"{name}: {', '.join(FORMATS[name].required)}" for name in allowed)
        raise ConfigError(
            f"task {task}: {path} has columns {', '.join(header) or '(none)'}; expected one of these layouts: {needs}"
        )
    fmt = FORMATS[chosen]
    behaviors: list[Behavior] = []
    left_out: dict[str, int] = {}
    seen: set[str] = set()
    for index, row in enumerate(rows):
        cells = {name.strip(): value for name, value in row.items()}
        made = fmt.row(index, {k: cells.get(k, "") for k in {*cells, *fmt.required}})
        if isinstance(made, str):
            left_out[made] = left_out.get(made, 0) + 1
            continue
        if not made.text.strip():
            left_out["an empty request"] = left_out.get("an empty request", 0) + 1
            continue
        if made.id in seen:
            raise ConfigError(f"task {task}: {path} row {index + 2}: behaviour id {made.id!r} appears twice")
        seen.add(made.id)
        behaviors.append(made)
    for reason, count in left_out.items():
        log.warning("%s: %s: left out %d row(s): %s", task, path, count, reason)
    if not behaviors:
        raise ConfigError(f"task {task}: {path} ({chosen} layout) has no usable behaviours")
    return behaviors


def missing_file_message(task: str, allowed: Sequence[str]) -> str:
    """One line: the task needs ``-T behaviors=PATH`` and where the upstream file is published."""
    where = "; ".join(f"{name}: {FORMATS[name].published}" for name in allowed)
    return (
        f"task {task}: no behaviours file; pass -T behaviors=PATH (nothing harmful ships with frontier-evals; on an "
        f"online machine 'frontier data get advbench|harmbench|strongreject|xstest' fetches one). Published at {where}"
    )
