"""Readers of model outputs produced elsewhere: JSONL records and a TSV column, plus the formats families declare.

A family adds a format (a benchmark's own log layout, say) by naming an :class:`ImportFormatSpec`
under the ``frontier.import_formats`` entry-point group. Each reader returns :class:`ImportedText`
entries keyed either by sample id or by row (the sample's position in its task, counted from 0),
with the source line each came from, so that every later error can name it. Duplicate keys are
refused here; matching the keys with a task's samples is :mod:`harness.importing`'s job.

The TSV reader is strict: one record per physical line. A quote that opens a field and is
never closed would otherwise swallow the following lines and shift every later row, so a
record spanning several lines is an error naming the line where it starts.
"""

from __future__ import annotations

import csv
import io
import logging
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from harness.errors import ConfigError
from harness.json_input import parse_json

log = logging.getLogger(__name__)

IMPORT_FORMAT_GROUP = "frontier.import_formats"
MAX_IMPORT_BYTES = 2_000_000_000
MAX_FIELD_CHARS = 50_000_000
BUILTIN_HELP = {
    "jsonl": 'one {"sample_id": ID, "text": ...} or {"row": N, "text": ...} per line\n'
    "(row: the sample's position in the task, counted from 0)",
    "tsv": "a header line, then one row per sample in task order; --column picks\n"
    "the text column (a 'sample_id' column, if present, keys rows by id)",
}


@dataclass(frozen=True)
class ImportedText:
    """One imported output: ``sample_id`` or ``row`` (from 0) says which sample; ``line`` where it was read."""

    text: str
    line: int
    sample_id: str | None = None
    row: int | None = None

    def key(self) -> str:
        """``id:<sample id>`` or ``row:<n>``: what the entry answers."""
        return f"id:{self.sample_id}" if self.sample_id is not None else f"row:{self.row}"


@dataclass(frozen=True)
class ImportFormatSpec:
    """A format declared under ``frontier.import_formats`` (the entry's name is the format's name).

    ``read`` turns a file into entries (ConfigError naming the line on bad input); a file is
    recognised without ``--format`` when its suffix is in ``suffixes`` or its first line
    matches the regular expression ``first_line``.
    """

    help: str
    read: Callable[[Path], list[ImportedText]]
    first_line: str = ""
    suffixes: tuple[str, ...] = ()

    def recognises(self, suffix: str, first: str) -> bool:
        """Whether a file with this (lower-case) suffix and first line is in this format."""
        return suffix in self.suffixes or bool(self.first_line and re.match(self.first_line, first))


def _checked_size(path: Path) -> None:
    """ConfigError when ``path`` is missing or too large to import."""
    if not path.is_file():
        raise ConfigError(f"import: {path} does not exist or is not a file")
    if path.stat().st_size > MAX_IMPORT_BYTES:
        raise ConfigError(f"import: {path} is larger than {MAX_IMPORT_BYTES} bytes")


def read_import_text(path: Path) -> str:
    """The file as UTF-8 text (a byte-order mark dropped); ConfigError naming the file otherwise."""
    _checked_size(path)
    try:
        return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"import: {path} is not UTF-8 text: {exc}") from None


def declared_formats() -> dict[str, ImportFormatSpec]:
    """The formats registered under ``frontier.import_formats``; a built-in name or a bad entry is skipped (logged)."""
    from harness.entry_point_files import load_declared

    loaded = load_declared(IMPORT_FORMAT_GROUP, ImportFormatSpec, "import format", log, reserved=BUILTIN_HELP)
    return {point.name: spec for point, spec in loaded}


def format_help() -> dict[str, str]:
    """Every format's name and help: the built-in ones, then the declared ones."""
    return {**BUILTIN_HELP, **{name: spec.help for name, spec in declared_formats().items()}}


def guess_format(path: Path) -> str:
    """The format of ``path`` from its suffix, else from its first line (a declared format's marker, or ``{``)."""
    suffix = path.suffix.lower()
    if suffix in (".jsonl", ".ndjson"):
        return "jsonl"
    if suffix in (".tsv", ".tab"):
        return "tsv"
    _checked_size(path)
    with path.open("rb") as handle:
        first = handle.readline(200).decode("utf-8", "replace").strip().lstrip("\ufeff")
    declared = declared_formats()
    for name, spec in declared.items():
        if spec.recognises(suffix, first):
            return name
    if first.startswith("{"):
        return "jsonl"
    names = ", ".join([*BUILTIN_HELP, *declared])
    raise ConfigError(f"import: cannot tell the format of {path}; pass --format ({names})")


def refuse_duplicates(entries: Sequence[ImportedText], origin: str) -> None:
    """ConfigError listing the keys given more than once (with their lines)."""
    first_line: dict[str, int] = {}
    clashes: list[str] = []
    for entry in entries:
        key = entry.key()
        if key in first_line:
            clashes.append(f"{key} (lines {first_line[key]} and {entry.line})")
        else:
            first_line[key] = entry.line
    if clashes:
        raise ConfigError(
            f"import: {origin} answers the same sample twice: {'; '.join(clashes[:5])}"
            + (f" and {len(clashes) - 5} more" if len(clashes) > 5 else "")
        )


def _jsonl_entry(record: object, path: Path, number: int) -> ImportedText:
    """One JSONL record as an entry; ConfigError naming the line when it is malformed."""
    where = f"import: {path}:{number}"
    if not isinstance(record, dict):
        raise ConfigError(f"{where}: expected a JSON object, got {type(record).__name__}")
    text = record.get("text")
    if not isinstance(text, str):
        raise ConfigError(f"{where}: 'text' must be a string")
    sample_id, row = record.get("sample_id"), record.get("row")
    if (sample_id is None) == (row is None):
        raise ConfigError(f"{where}: give exactly one of 'sample_id' and 'row'")
    if sample_id is not None and not isinstance(sample_id, str):
        raise ConfigError(f"{where}: 'sample_id' must be a string")
    if row is not None and (isinstance(row, bool) or not isinstance(row, int) or row < 0):
        raise ConfigError(f"{where}: 'row' must be an integer >= 0 (the sample's position, from 0)")
    return ImportedText(text=text, line=number, sample_id=sample_id, row=row)


def read_jsonl(path: Path) -> list[ImportedText]:
    """Entries of a JSONL file of ``{"sample_id": ..., "text": ...}`` or ``{"row": n, "text": ...}``."""
    entries: list[ImportedText] = []
    for number, line in enumerate(read_import_text(path).split("\n"), start=1):  # U+2028 may sit inside a JSON string
        if not line.strip():
            continue
        entries.append(_jsonl_entry(parse_json(line, f"import: {path}:{number}"), path, number))
    refuse_duplicates(entries, str(path))
    return entries


def iter_tsv_records(text: str, origin: str, keep_blank: bool = False) -> Iterator[tuple[int, list[str]]]:
    """``(line, fields)`` for each record of tab-separated ``text``; a blank line is skipped, or with
    ``keep_blank`` is a record with no fields.

    Quoting follows pandas' and the csv module's rules (a field that starts with ``"`` may
    hold tabs and ``""``; text after its closing quote is kept), but a record must end on
    the line it starts: ConfigError names the line of a quote that runs on or never closes.
    """
    csv.field_size_limit(MAX_FIELD_CHARS)
    reader = csv.reader(io.StringIO(text, newline=""), delimiter="\t")  # lines end at \n, \r\n or \r only
    previous = 0
    while True:
        start = previous + 1
        try:
            fields = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise ConfigError(f"{origin}: line {start}: not readable as tab-separated values ({exc})") from None
        if reader.line_num - previous > 1 or any("\n" in field or "\r" in field for field in fields):
            raise ConfigError(
                f"{origin}: line {start}: a quoted field is not closed on its line (the record runs "
                f"over {reader.line_num - previous} line(s); an unbalanced double quote?); every "
                "record must be on one line"
            )
        previous = reader.line_num
        if fields or keep_blank:
            yield start, fields


def read_tsv_table(
    text: str, origin: str, keep_blank: bool = False
) -> tuple[list[str], list[tuple[int, dict[str, str]]]]:
    """The header and the ``(line, row)`` records of a strict TSV; ConfigError on a ragged row.

    With ``keep_blank`` every line after the header is a record, a blank line one of empty fields (so in
    a one-column file an empty output is an empty field, never a skipped line that shifts the rows after it).
    """
    records = iter_tsv_records(text, origin, keep_blank)
    first = next((record for record in records if record[1]), None)
    if first is None:
        raise ConfigError(f"{origin}: empty file (no header line)")
    header = [name.strip() for name in first[1]]
    rows: list[tuple[int, dict[str, str]]] = []
    for line, fields in records:
        if len(fields) > len(header):
            raise ConfigError(f"{origin}: line {line} has {len(fields)} fields but the header has {len(header)}")
        padded = fields + [""] * (len(header) - len(fields))
        rows.append((line, dict(zip(header, padded, strict=True))))
    return header, rows


def read_tsv_column(path: Path, column: str | None) -> list[ImportedText]:
    """One entry per data row of ``column`` (row i answers sample i, from 0), or per ``sample_id``.

    A ``sample_id`` column, when present, keys the rows by id instead of position.
    """
    header, rows = read_tsv_table(read_import_text(path), f"import: {path}", keep_blank=True)
    texts = [c for c in header if c != "sample_id"]
    if column is None:
        if len(texts) != 1:
            raise ConfigError(f"import: {path} has columns {header}; pass --column to choose one")
        column = texts[0]
    if column not in header:
        raise ConfigError(f"import: {path} has no column {column!r}; it has {header}")
    keyed = "sample_id" in header
    entries = [
        ImportedText(
            text=row[column], line=line, sample_id=row["sample_id"] if keyed else None, row=None if keyed else index
        )
        for index, (line, row) in enumerate(rows)
    ]
    refuse_duplicates(entries, str(path))
    return entries


def read_outputs(path: Path, fmt: str | None = None, column: str | None = None) -> list[ImportedText]:
    """The entries of ``path`` in format ``fmt`` (guessed when None): a built-in one or a declared one."""
    chosen = fmt or guess_format(path)
    if column is not None and chosen != "tsv":
        raise ConfigError(f"import: --column applies to TSV files, not {chosen}")
    if chosen == "jsonl":
        return read_jsonl(path)
    if chosen == "tsv":
        return read_tsv_column(path, column)
    declared = declared_formats()
    if chosen in declared:
        return declared[chosen].read(path)
    raise ConfigError(f"import: unknown format {chosen!r}; choose one of {', '.join([*BUILTIN_HELP, *declared])}")
