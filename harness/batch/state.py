"""The batches of a run, in its directory: ``batches.jsonl``, appended and synced as batches are made and end.

One line per event. ``submitting``: a submission token, the adapter, and for each ``custom_id``
the task, sample and role of its request, written before the provider is asked to make the batch;
``submitted``: the batch id the provider gave that submission; ``abandoned``: the provider holds
no batch for a submission a killed process left without an id; ``ended``: a batch's final status
and what its results held. A resumed run reads it to find the batch that holds a request (or the
submission whose batch it must look up); ``frontier show`` reads it to say how many requests wait
in which batch. A line cut by a killed process is ignored.
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
class Submission:
    """Requests handed to the provider as one batch; ``batch_id`` once the provider's answer was recorded."""

    token: str
    adapter: str
    submitted_at: str
    requests: dict[str, list[str]] = field(default_factory=dict)
    price_note: str | None = None
    batch_id: str | None = None
    abandoned: bool = False
    ended: dict[str, Any] | None = None


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _apply(submissions: dict[str, Submission], by_batch: dict[str, Submission], event: dict[str, Any]) -> None:
    """Fold one event into the submissions (KeyError, TypeError or ValueError when it is not an event)."""
    kind = event["event"]
    if kind == "submitting":
        requests = {str(k): [str(part) for part in v] for k, v in dict(event["requests"]).items()}
        token = str(event["submission"])
        note = event.get("price")
        submission = Submission(
            token, str(event["adapter"]), str(event["at"]), requests, note if isinstance(note, str) else None
        )
        submissions[token] = submission
    elif kind == "submitted":
        submission = submissions[str(event["submission"])]
        submission.batch_id = str(event["batch"])
        by_batch[submission.batch_id] = submission
    elif kind == "abandoned":
        submissions[str(event["submission"])].abandoned = True
    elif kind == "ended":
        by_batch[str(event["batch"])].ended = dict(event)
    else:
        raise ValueError(f"unknown event {kind!r}")


def read_submissions(run_dir: Path) -> dict[str, Submission]:
    """The submissions recorded in ``run_dir`` by token, in order (none when there is no state file)."""
    path = run_dir / STATE_FILE
    submissions: dict[str, Submission] = {}
    by_batch: dict[str, Submission] = {}
    try:
        lines = path.read_bytes().splitlines()
    except FileNotFoundError:
        return submissions
    for number, line in enumerate(lines, 1):
        try:
            _apply(submissions, by_batch, json.loads(line))
        except (ValueError, KeyError, TypeError, RecursionError):
            if number < len(lines):  # the last line may be cut by a killed process; any other is damage
                log.warning("%s: line %d is not a batch event; ignored", path, number)
    return submissions


def read_batches(run_dir: Path) -> dict[str, Submission]:
    """The submissions of ``run_dir`` that the provider made a batch of, by batch id."""
    return {s.batch_id: s for s in read_submissions(run_dir).values() if s.batch_id is not None}


def price_notes(run_dir: Path) -> list[str]:
    """How the run's batched calls were priced, one note per adapter (litellm's batch prices or the discount)."""
    return list(dict.fromkeys(s.price_note for s in read_submissions(run_dir).values() if s.price_note))


def waiting_requests(run_dir: Path) -> list[tuple[str, str, int, str]]:
    """``(batch id, adapter, requests, submitted at)`` of each batch not known to have ended; a submission
    a killed process left without its batch id shows as ``submission <token>``."""
    return [
        (s.batch_id or f"submission {s.token}", s.adapter, len(s.requests), s.submitted_at)
        for s in read_submissions(run_dir).values()
        if s.ended is None and not s.abandoned
    ]


class BatchState:
    """The run directory's batch state, read once when opened and appended to as batches change."""

    def __init__(self, run_dir: Path) -> None:
        self.path = run_dir / STATE_FILE
        self.submissions = read_submissions(run_dir)
        self._latest: dict[tuple[str, str], Submission] = {}
        for submission in self.submissions.values():
            if not submission.abandoned:
                self._index(submission)
        self._lock = threading.Lock()

    def _index(self, submission: Submission) -> None:
        for custom_id in submission.requests:
            self._latest[(submission.adapter, custom_id)] = submission

    def submission_of(self, adapter: str, custom_id: str) -> Submission | None:
        """The submission ``custom_id`` of ``adapter`` was last handed over in (not abandoned), or None."""
        return self._latest.get((adapter, custom_id))

    def members(self, batch_id: str) -> set[str]:
        """The custom ids of batch ``batch_id``."""
        return next(set(s.requests) for s in self.submissions.values() if s.batch_id == batch_id)

    def submitting(
        self, token: str, adapter: str, requests: dict[str, list[str]], price_note: str | None = None
    ) -> None:
        """Record, before asking the provider, which request (task, sample, role) each custom id is, and
        how the batch is priced (``price_note``)."""
        submission = Submission(token, adapter, _now(), dict(requests), price_note)
        self.submissions[token] = submission
        self._index(submission)
        self._append(
            {
                "event": "submitting",
                "submission": token,
                "adapter": adapter,
                "at": submission.submitted_at,
                "price": price_note,
                "requests": requests,
            }
        )

    def submitted(self, token: str, batch_id: str) -> None:
        """Record the batch id the provider gave submission ``token``."""
        self.submissions[token].batch_id = batch_id
        self._append({"event": "submitted", "submission": token, "batch": batch_id, "at": _now()})

    def abandoned(self, token: str) -> None:
        """Record that the provider holds no batch for submission ``token`` (its requests are submitted anew)."""
        submission = self.submissions[token]
        submission.abandoned = True
        for custom_id in submission.requests:
            if self._latest.get((submission.adapter, custom_id)) is submission:
                del self._latest[(submission.adapter, custom_id)]
        self._append({"event": "abandoned", "submission": token, "at": _now()})

    def ended(self, batch_id: str, status: str, counts: dict[str, int], anomalies: dict[str, int]) -> None:
        """Record that a batch ended with ``status``: answers, errors, unanswered, and lines not attributed."""
        event = {"event": "ended", "batch": batch_id, "at": _now(), "status": status, **counts, "anomalies": anomalies}
        for submission in self.submissions.values():
            if submission.batch_id == batch_id:
                submission.ended = event
        self._append(event)

    def _append(self, event: dict[str, Any]) -> None:
        data = (json.dumps(event, separators=(",", ":")) + "\n").encode()
        with self._lock, open(self.path, "ab") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
