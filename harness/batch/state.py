"""The batches of a run, in its directory: ``batches.jsonl``, appended and synced as batches are made and end.

One line per event: ``submitted`` (the batch id, the adapter, and for each ``custom_id`` the task,
sample and role of its request) and ``ended`` (the final status and what its results held). A
resumed run reads it to find the batch that holds a request; ``frontier show`` reads it to say how
many requests wait in which batch. A line cut by a killed process is ignored.
"""

from __future__ import annotations

import json
import logging
import os
import threading
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)

STATE_FILE = "batches.jsonl"


@dataclass
class BatchRecord:
    """One batch as the state file knows it."""

    batch_id: str
    adapter: str
    submitted_at: str
    requests: dict[str, list[str]] = field(default_factory=dict)
    ended: dict[str, Any] | None = None


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def read_batches(run_dir: Path) -> dict[str, BatchRecord]:
    """The batches recorded in ``run_dir`` by id, in the order submitted (none when there is no state file)."""
    path = run_dir / STATE_FILE
    batches: dict[str, BatchRecord] = {}
    try:
        lines = path.read_bytes().splitlines()
    except FileNotFoundError:
        return batches
    for number, line in enumerate(lines, 1):
        try:
            event = json.loads(line)
            kind, batch_id = event["event"], str(event["batch"])
            if kind == "submitted":
                requests = {str(k): [str(part) for part in v] for k, v in dict(event["requests"]).items()}
                batches[batch_id] = BatchRecord(batch_id, str(event["adapter"]), str(event.get("at")), requests)
            elif kind == "ended" and batch_id in batches:
                batches[batch_id].ended = dict(event)
        except (ValueError, KeyError, TypeError, RecursionError):
            if number < len(lines):  # the last line may be cut by a killed process; any other is damage
                log.warning("%s: line %d is not a batch event; ignored", path, number)
    return batches


def waiting_requests(run_dir: Path) -> list[tuple[str, str, int, str]]:
    """``(batch id, adapter, requests, submitted at)`` of each batch not known to have ended."""
    return [
        (record.batch_id, record.adapter, len(record.requests), record.submitted_at)
        for record in read_batches(run_dir).values()
        if record.ended is None
    ]


class BatchState:
    """The run directory's batch state, read once when opened and appended to as batches change."""

    def __init__(self, run_dir: Path) -> None:
        self.path = run_dir / STATE_FILE
        self.batches = read_batches(run_dir)
        self._latest: dict[tuple[str, str], str] = {}
        for record in self.batches.values():
            for custom_id in record.requests:
                self._latest[(record.adapter, custom_id)] = record.batch_id
        self._lock = threading.Lock()

    def batch_of(self, adapter: str, custom_id: str) -> BatchRecord | None:
        """The batch ``custom_id`` of ``adapter`` was last submitted in, or None."""
        batch_id = self._latest.get((adapter, custom_id))
        return self.batches.get(batch_id) if batch_id is not None else None

    def submitted(self, batch_id: str, adapter: str, requests: dict[str, list[str]]) -> None:
        """Record a new batch and which request (task, sample, role) each of its custom ids is."""
        record = BatchRecord(batch_id, adapter, _now(), dict(requests))
        self.batches[batch_id] = record
        for custom_id in requests:
            self._latest[(adapter, custom_id)] = batch_id
        self._append(
            {
                "event": "submitted",
                "batch": batch_id,
                "adapter": adapter,
                "at": record.submitted_at,
                "requests": requests,
            }
        )

    def ended(self, batch_id: str, status: str, counts: dict[str, int], anomalies: dict[str, int]) -> None:
        """Record that a batch ended with ``status``: answers, errors, unanswered, and lines not attributed."""
        event = {"event": "ended", "batch": batch_id, "at": _now(), "status": status, **counts, "anomalies": anomalies}
        if batch_id in self.batches:
            self.batches[batch_id].ended = event
        self._append(event)

    def _append(self, event: dict[str, Any]) -> None:
        data = (json.dumps(event, separators=(",", ":")) + "\n").encode()
        with self._lock, open(self.path, "ab") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
