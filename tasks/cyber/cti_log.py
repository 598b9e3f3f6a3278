"""CTI-Bench's raw model logs as an import format (``frontier import --format cti-log``).

The upstream evaluation scripts write each response after a ``#####<row, from 1>#####`` line
and two newlines after it. Declared under ``frontier.import_formats`` as ``cti-log``; a file
whose first line is such a marker is recognised without ``--format``.
"""

from __future__ import annotations

import re
from pathlib import Path

from harness.api import ConfigError, ImportedText, ImportFormatSpec, read_import_text, refuse_duplicates

MARKER = r"^#####(\d{1,9})#####$"
_MARKER = re.compile(MARKER)
_LOOKS_LIKE_MARKER = re.compile(r"^\s*(?:#####[^#]+#####|#{4,}\s*[-+]?\s*\d[\d\s.,_]*#{4,})\s*$")
"""A line a reader takes for a marker: ``#####`` around anything, or four or more ``#`` around a number;
one that is not a valid marker is an error, never text glued onto the answer before it."""


def read_cti_log(path: Path) -> list[ImportedText]:
    """Entries of a CTI-Bench raw log: ``#####<row, from 1>#####`` lines, each followed by its text.

    The upstream writer puts two newlines after each text; they are removed. Text before
    the first marker is an error, and so are a marker given twice and a line that looks like a
    marker but is not a valid one (``#####-1#####``, a 5,000-digit row), naming its line.
    """
    entries: list[ImportedText] = []
    current: tuple[int, int] | None = None
    body: list[str] = []

    def flush() -> None:
        """Close the entry being read (the upstream writer's two trailing newlines removed)."""
        if current is not None:
            text = "\n".join(body)
            text = text[:-2] if text.endswith("\n\n") else text.rstrip("\n")
            entries.append(ImportedText(text=text, line=current[1], row=current[0] - 1))

    for number, line in enumerate(read_import_text(path).split("\n"), start=1):
        marker = _MARKER.match(line.rstrip("\r"))
        if marker:
            flush()
            row = int(marker.group(1))
            if row < 1:
                raise ConfigError(f"import: {path}:{number}: rows are counted from 1, got #####{row}#####")
            current, body = (row, number), []
        elif _LOOKS_LIKE_MARKER.match(line):
            shown = line.strip()
            shown = shown if len(shown) <= 40 else f"{shown[:20]}...{shown[-12:]} ({len(shown)} characters)"
            raise ConfigError(
                f"import: {path}:{number}: malformed marker {shown!r}; a marker is #####<row>##### "
                "with the row a number from 1 (at most 9 digits) and nothing else on the line"
            )
        elif current is None:
            if line.strip():
                raise ConfigError(f"import: {path}:{number}: text before the first #####1##### marker")
        else:
            body.append(line)
    flush()
    if not entries:
        raise ConfigError(f"import: {path} has no #####<row>##### markers")
    refuse_duplicates(entries, str(path))
    return entries


CTI_LOG = ImportFormatSpec(
    help="CTI-Bench's raw log: '#####<row, counted from 1>#####' then the text",
    read=read_cti_log,
    first_line=MARKER,
)
