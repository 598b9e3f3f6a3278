"""A content-addressed response cache in SQLite, keyed by the adapter and the request."""

from __future__ import annotations

import hashlib
import json
import logging
import os
import sqlite3
import threading
import time
from pathlib import Path

from harness.errors import ConfigError
from harness.types import GenerateRequest, Generation, record_json

log = logging.getLogger(__name__)

CACHE_ENV = "FRONTIER_CACHE_DIR"


class CacheError(ConfigError):
    """The response cache file cannot be used (corrupt, or not an SQLite database)."""


def request_key(request: GenerateRequest) -> str:
    """SHA-256 of the request's canonical JSON: equal requests, equal keys."""
    canonical = json.dumps(request.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


UNUSABLE_FINISH_REASONS = frozenset({"error"})


def is_usable_answer(generation: Generation) -> bool:
    """True when ``generation`` is an answer worth replaying: text or tool calls, and not an error finish.

    A transient bad HTTP 200 (``content: null``, an empty message, a body cut at the size cap,
    a server-side error finish) fails this check, so it is neither stored nor served.
    """
    has_answer = bool(generation.text.strip()) or bool(generation.tool_calls)
    return has_answer and generation.finish_reason not in UNUSABLE_FINISH_REASONS


def default_cache_path() -> Path:
    """``$FRONTIER_CACHE_DIR/responses.sqlite``, else ``~/.cache/frontier-evals/responses.sqlite``."""
    base = os.environ.get(CACHE_ENV) or Path.home() / ".cache" / "frontier-evals"
    return Path(base) / "responses.sqlite"


class ResponseCache:
    """Generations stored under (adapter name, request key); safe across threads and processes."""

    def __init__(self, path: Path) -> None:
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        try:
            self._db = sqlite3.connect(str(path), timeout=30, check_same_thread=False, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS responses (adapter TEXT NOT NULL, key TEXT NOT NULL, "
                "generation TEXT NOT NULL, created REAL NOT NULL, PRIMARY KEY (adapter, key))"
            )
        except sqlite3.DatabaseError as exc:
            raise self.unreadable(exc) from None

    def unreadable(self, exc: sqlite3.Error) -> CacheError:
        """The one-line error of a cache file SQLite cannot use: its name, the cause, and the two ways out."""
        return CacheError(
            f"response cache {self.path} cannot be used ({exc}); run with --no-cache, or delete "
            f"{self.path} (and any {self.path.name}-wal and {self.path.name}-shm beside it) to start an empty cache"
        )

    def get(self, adapter: str, key: str) -> Generation | None:
        """The cached generation, or None: an unreadable or unusable entry counts as a miss and is dropped."""
        try:
            with self._lock:
                row = self._db.execute(
                    "SELECT generation FROM responses WHERE adapter = ? AND key = ?", (adapter, key)
                ).fetchone()
        except sqlite3.DatabaseError as exc:
            raise self.unreadable(exc) from None
        if row is None:
            return None
        try:
            generation = Generation.model_validate_json(row[0])
        except ValueError:
            generation = None
        if generation is None or not is_usable_answer(generation):
            with self._lock:
                self._db.execute("DELETE FROM responses WHERE adapter = ? AND key = ?", (adapter, key))
            return None
        return generation

    def put(self, adapter: str, key: str, generation: Generation) -> None:
        """Store ``generation`` if it is a usable answer; the first answer for a key wins."""
        if not is_usable_answer(generation):
            return
        try:
            with self._lock:
                self._db.execute(
                    "INSERT OR IGNORE INTO responses VALUES (?, ?, ?, ?)",
                    (adapter, key, record_json(generation), time.time()),
                )
        except sqlite3.Error as exc:  # a full disk or a locked file: the cache is an optimisation, the answer stands
            log.warning("response cache %s not written: %s", self.path, exc)

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._db.close()
