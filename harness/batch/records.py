"""What a batch's results file says about each request, read defensively.

Every line is attributed by its ``custom_id`` to a request of the batch or to nothing: a line
that is not a JSON object with a string ``custom_id``, or whose fields are not the provider's
shape, is counted as malformed; an id the batch does not hold is counted as unknown; an id
answered twice is counted as duplicated and neither answer is used. Nothing is guessed.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable, Collection
from dataclasses import dataclass, field
from typing import Any

from harness.json_input import JsonInputError, parse_json


@dataclass(frozen=True)
class Answer:
    """The provider answered the request: its response body (the provider's own shape)."""

    body: dict[str, Any]


@dataclass(frozen=True)
class Failure:
    """The provider answered the request with an error; ``transient`` ones are worth sending again."""

    message: str
    transient: bool = False


@dataclass(frozen=True)
class Unanswered:
    """The batch ended without working on the request (it expired or was cancelled first)."""

    reason: str


Outcome = Answer | Failure | Unanswered

RecordParser = Callable[[dict[str, Any]], Outcome]
"""A provider's reading of one results line (its ``custom_id`` already taken); ValueError when malformed."""


@dataclass
class Anomalies:
    """Counts of results lines that were not attributed to a request."""

    malformed: int = 0
    unknown: int = 0
    duplicated: int = 0

    def total(self) -> int:
        """Lines not attributed."""
        return self.malformed + self.unknown + self.duplicated

    def describe(self) -> str:
        """One phrase for a log line, e.g. ``2 malformed lines, 1 with an unknown custom_id``."""
        parts = [
            f"{self.malformed} malformed line(s)" if self.malformed else "",
            f"{self.unknown} with a custom_id the batch does not hold" if self.unknown else "",
            f"{self.duplicated} duplicated custom_id(s), none of them used" if self.duplicated else "",
        ]
        return ", ".join(part for part in parts if part) or "none"

    def as_dict(self) -> dict[str, int]:
        """The counts, for the batch state file."""
        return {"malformed": self.malformed, "unknown": self.unknown, "duplicated": self.duplicated}


@dataclass
class Results:
    """The outcomes read so far for one batch, and the lines that were not attributed."""

    members: Collection[str]
    outcomes: dict[str, Outcome] = field(default_factory=dict)
    anomalies: Anomalies = field(default_factory=Anomalies)
    _duplicated: set[str] = field(default_factory=set)

    def add(self, line: bytes | None, parse: RecordParser) -> None:
        """Read one line into the outcomes (see the module docstring for what is counted instead)."""
        try:
            record = parse_json(line, "a batch result line") if line is not None else None
        except JsonInputError:  # not JSON, not UTF-8, an integer too long to read, nested too deep
            record = None
        custom_id = record.get("custom_id") if isinstance(record, dict) else None
        if not isinstance(record, dict) or not isinstance(custom_id, str):
            self.anomalies.malformed += 1
            return
        if custom_id not in self.members:
            self.anomalies.unknown += 1
            return
        if custom_id in self._duplicated or custom_id in self.outcomes:
            self.anomalies.duplicated += 1
            self._duplicated.add(custom_id)
            self.outcomes[custom_id] = Failure("the batch returned more than one result for this request; none is used")
            return
        try:
            self.outcomes[custom_id] = parse(record)
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            self.anomalies.malformed += 1
            self.outcomes[custom_id] = Failure(f"malformed result line: {exc}")

    async def read(self, lines: AsyncIterator[bytes | None], parse: RecordParser) -> None:
        """Read every line of one results file."""
        async for line in lines:
            self.add(line, parse)


def error_message(error: object) -> str:
    """A provider's error object (``{"message": ...}``, nested ``{"error": {...}}``, or text) as one line."""
    for _ in range(3):
        if isinstance(error, dict) and isinstance(error.get("error"), (dict, str)):
            error = error["error"]
    if isinstance(error, dict):
        message = error.get("message")
        kind = error.get("type") or error.get("code")
        text = str(message) if message is not None else json.dumps(error)[:300]
        return f"{kind}: {text}" if isinstance(kind, str) else text
    return str(error)[:500]
