"""The compact index of a run's samples that the filter page reads (``static/sample_filter.js``), written as the
log streams.

Script files, since a page opened from disk may run a script beside it but not fetch a JSON file:

- the manifest, ``<name>.js``: ``window.frontierSampleIndex = {...}`` with the task names, the verdicts, each
  task's page folder, the sample count and the parts, each with its row count and a tally of its rows by
  (task, verdict), so that a filter by task and outcome is counted, and parts without a match are skipped,
  without loading them;
- the parts, ``<name>-<k>.js``: ``window.frontierSampleIndexPart(k, {...})``, at most ``PART_ROWS`` rows each
  as columns: ``task`` and ``verdict`` (positions in the manifest's lists), ``id``, ``score``, ``page`` (the
  page's hash when the page is named from the id by the rule the script repeats, else the page's file stem),
  and ``output`` and ``reason`` (the first line of the output and of the score's explanation, cut to
  ``TEXT_CHARS``), positions in the part's ``texts``, each distinct text written once.

All of it is ASCII-escaped JSON. Memory holds one part at a time.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from harness.score_view import verdict
from harness.types import SampleResult
from leaderboard.outputs import write_output
from leaderboard.views import slug

VERDICTS = ("correct", "partial", "wrong", "unscored", "error")
PART_ROWS = 10_000
"""Rows of one part file (about 0.7 MB for τ²-like samples)."""
TEXT_CHARS = 120
"""Characters kept of a sample's output and of its reason, each its first line, which the text filter searches."""
SHOWN = 500
"""Matches the filter page lists (it loads parts until it has listed as many, or has read every part)."""


def first_line(text: str) -> str:
    """The first non-empty line of ``text``, cut to ``TEXT_CHARS``."""
    line = next((line.strip() for line in text.splitlines() if line.strip()), "")
    return line[:TEXT_CHARS]


def page_key(sample_id: str) -> str:
    """How a part names a sample's page: the hash of ``slug(sample_id)`` when the script can rebuild the rest
    from the id (an ASCII id: lower-casing and the safe characters agree), else the whole file stem."""
    stem = slug(sample_id)
    return stem[-10:] if sample_id.isascii() else stem


def _number(value: float | None) -> float | int | None:
    """A score as JSON writes it shortest (``1`` for ``1.0``)."""
    if value is None or value != value or value in (float("inf"), float("-inf")):
        return None
    return int(value) if float(value).is_integer() and abs(value) < 2**53 else value


class SampleIndex:
    """Writes a run's index, one part file per ``PART_ROWS`` rows, and the manifest at :meth:`close`."""

    def __init__(self, folder: Path, name: str, submission: str) -> None:
        self.folder, self.name, self.submission, self.part_rows = folder, name, submission, PART_ROWS
        self.tasks: dict[str, int] = {}
        self.dirs: list[str] = []
        self.count = 0
        self.parts: list[dict[str, Any]] = []
        self._columns: dict[str, list[Any]] = {}
        self._texts: dict[str, int] = {}
        self._tally: dict[tuple[int, int], int] = {}
        self._reset()

    def _reset(self) -> None:
        self._columns = {key: [] for key in ("task", "verdict", "id", "score", "page", "output", "reason")}
        self._texts, self._tally = {}, {}

    def _text(self, text: str) -> int:
        return self._texts.setdefault(text, len(self._texts))

    def add(self, result: SampleResult) -> None:
        """Add ``result``'s row (its page is :func:`leaderboard.samples_pages.sample_page`'s)."""
        task = self.tasks.get(result.task)
        if task is None:
            task = self.tasks[result.task] = len(self.tasks)
            self.dirs.append(slug(self.submission, result.task))
        code = VERDICTS.index(verdict(result.score))
        row = {
            "task": task,
            "verdict": code,
            "id": result.sample_id,
            "score": _number(result.score.value),
            "page": page_key(result.sample_id),
            "output": self._text(first_line(result.output.text)),
            "reason": self._text(first_line(result.score.explanation)),
        }
        for key, value in row.items():
            self._columns[key].append(value)
        self._tally[(task, code)] = self._tally.get((task, code), 0) + 1
        self.count += 1
        if len(self._columns["id"]) == self.part_rows:
            self._flush()

    def _flush(self) -> None:
        rows = len(self._columns["id"])
        if not rows:
            return
        number = len(self.parts)
        source = f"{self.name}-{number}.js"
        body = json.dumps({**self._columns, "texts": list(self._texts)}, separators=(",", ":"), allow_nan=False)
        write_output(self.folder / source, f"window.frontierSampleIndexPart({number},{body});\n".encode("ascii"))
        tally = [[task, code, count] for (task, code), count in sorted(self._tally.items())]
        self.parts.append({"src": source, "rows": rows, "tally": tally})
        self._reset()

    def close(self) -> None:
        """Write the last part and the manifest."""
        self._flush()
        manifest = {
            "tasks": list(self.tasks),
            "verdicts": list(VERDICTS),
            "dirs": self.dirs,
            "count": self.count,
            "parts": self.parts,
            "shown": SHOWN,
        }
        text = json.dumps(manifest, separators=(",", ":"))
        write_output(self.folder / f"{self.name}.js", f"window.frontierSampleIndex = {text};\n".encode("ascii"))
