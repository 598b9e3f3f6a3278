"""What a provider's batch API offers the collector: one :class:`BatchBackend` per adapter."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Protocol
from urllib.parse import quote

from harness.batch.records import Results
from harness.errors import AdapterError
from harness.types import GenerateRequest, Generation

ENDED_STATES = ("completed", "expired", "cancelled", "failed")


@dataclass(frozen=True)
class BatchStatus:
    """A batch's state in the provider's words (``raw``) and ours: ``running`` or one of :data:`ENDED_STATES`.

    ``result_paths`` are where its results lie once it ended; ``message`` says why it failed.
    """

    state: str
    raw: str
    result_paths: tuple[str, ...] = ()
    message: str = ""

    @property
    def ended(self) -> bool:
        """True once the provider works on the batch no longer."""
        return self.state != "running"


class BatchBackend(Protocol):
    """One provider's batch endpoints for one model."""

    provider: str
    max_requests: int
    max_bytes: int
    price_note: str | None

    def refuses(self, request: GenerateRequest) -> str | None:
        """Why ``request`` cannot go into a batch (it is then sent on its own), or None."""

    def line(self, custom_id: str, request: GenerateRequest) -> dict[str, Any]:
        """The request as one entry of the provider's batch input."""

    async def submit(self, lines: list[dict[str, Any]], token: str) -> str:
        """Create a batch of ``lines``, tagged with submission ``token`` where the provider allows; its id."""

    async def find(self, token: str) -> str | None:
        """The id of the batch tagged with submission ``token``; None when the provider holds none or cannot tell."""

    async def status(self, batch_id: str) -> BatchStatus:
        """The batch's status now."""

    async def results(self, status: BatchStatus, members: set[str]) -> Results:
        """Every results line of an ended batch, attributed to ``members`` (custom ids)."""

    def generation(self, request: GenerateRequest, body: dict[str, Any], latency_s: float) -> Generation:
        """The Generation of one successful answer's ``body``; AdapterError when it is malformed."""

    async def aclose(self) -> None:
        """Close the HTTP session."""


def path_id(value: object, what: str) -> str:
    """An id from a provider's answer, safe to put in a URL path; AdapterError when it is not a non-empty string."""
    if not isinstance(value, str) or not value or len(value) > 200:
        raise AdapterError(f"malformed batch response: {what} is {value!r}, not an id")
    return quote(value, safe="")


def input_size(line: dict[str, Any]) -> int:
    """Bytes ``line`` adds to a batch's input (one compact JSON line)."""
    return len(json.dumps(line, separators=(",", ":")).encode()) + 1
