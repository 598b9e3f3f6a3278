"""The one reader of ``samples.jsonl``, with one policy, used by the harness and the leaderboard alike.

The policy:

* a blank line is skipped;
* a last line with no newline after it that does not parse is a write cut short by a
  kill: it is ignored here, and cut off when the run resumes (a last line that parses is
  a record, newline or not);
* any other line that is not a valid :class:`~harness.types.SampleResult` is an error
  naming the file and the line (:class:`LogFormatError`): a record is never skipped in
  silence, since a skipped record is a sample silently missing from the scores;
* a sample logged more than once (an error retried with ``--retry-errors``, or a rescore's
  history) counts once: **the last record wins**, and the earlier ones stay in the file
  as its history.

The log is streamed, never held whole: one pass reads each line's identity, the next
yields the records that win.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TypeVar

from pydantic import BaseModel, ConfigDict, ValidationError

from harness.errors import ConfigError
from harness.types import SampleResult


class LogFormatError(ConfigError):
    """A line of a ``samples.jsonl`` is not a valid sample result."""


class _Identity(BaseModel):
    """The two fields that say which sample a log line is about."""

    model_config = ConfigDict(extra="ignore")

    task: str
    sample_id: str


def result_key(task: str, sample_id: str) -> str:
    """The identity of a logged sample within a run."""
    return f"{task}\x00{sample_id}"


def key_parts(key: str) -> tuple[str, str]:
    """The task and sample id of a :func:`result_key`."""
    task, _, sample_id = key.partition("\x00")
    return task, sample_id


def _problem(exc: Exception) -> str:
    if isinstance(exc, ValidationError):
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first.get("loc", ()))
        return f"{where}: {first.get('msg')}" if where else str(first.get("msg"))
    return "nested too deeply"


def _lines(path: Path) -> Iterator[tuple[int, bytes, bool]]:
    """(line number, bytes, is the last line) for every non-blank line of ``path``."""
    with path.open("rb") as handle:
        pending: tuple[int, bytes] | None = None
        for number, raw in enumerate(handle, start=1):
            if pending is not None:
                yield pending[0], pending[1], False
            pending = (number, raw) if raw.strip() else None
        if pending is not None:
            yield pending[0], pending[1], True


ModelT = TypeVar("ModelT", bound=BaseModel)


def _parse(path: Path, number: int, raw: bytes, last: bool, model: type[ModelT]) -> ModelT | None:
    """The line as ``model``; None for a torn last line; LogFormatError for any other bad line."""
    try:
        return model.model_validate_json(raw)
    except (ValidationError, RecursionError) as exc:
        if last and not raw.endswith(b"\n"):
            return None
        raise LogFormatError(f"{path}:{number}: not a sample result ({_problem(exc)})") from None


def iter_records(path: Path) -> Iterator[tuple[int, SampleResult]]:
    """Every record of the log in file order, duplicates included, with its line number."""
    if not path.is_file():
        return
    for number, raw, last in _lines(path):
        record = _parse(path, number, raw, last, SampleResult)
        if record is not None:
            yield number, record


def winning_lines(path: Path) -> dict[str, int]:
    """For each sample logged in ``path``, the line number of its last (winning) record."""
    latest: dict[str, int] = {}
    if not path.is_file():
        return latest
    for number, raw, last in _lines(path):
        identity = _parse(path, number, raw, last, _Identity)
        if identity is not None:
            latest[result_key(identity.task, identity.sample_id)] = number
    return latest


def iter_results(path: Path, winners: set[int] | None = None) -> Iterator[SampleResult]:
    """Stream the log's results, each sample once: its last record (see the module's policy).

    ``winners`` (the line numbers :func:`winning_lines` found) saves the first pass when
    the caller already knows them for this exact file.
    """
    if not path.is_file():
        return
    if winners is None:
        winners = set(winning_lines(path).values())
    for number, raw, last in _lines(path):
        if number in winners:
            record = _parse(path, number, raw, last, SampleResult)
            if record is not None:
                yield record
