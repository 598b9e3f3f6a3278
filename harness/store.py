"""A run directory: ``config.json``, an append-only ``samples.jsonl`` and ``summary.json``.

Lines are appended and flushed one ``SampleResult`` at a time, so a run killed at
any point loses at most the line being written; that partial line is cut off when
the run resumes, and logged samples are skipped.
"""

from __future__ import annotations

import json
import logging
import os
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

from harness.errors import ConfigError
from harness.types import RunSummary, SampleResult

log = logging.getLogger(__name__)

CONFIG_FILE = "config.json"
SAMPLES_FILE = "samples.jsonl"
SUMMARY_FILE = "summary.json"


def iter_results(path: Path) -> Iterator[SampleResult]:
    """Stream the results of a ``samples.jsonl``; a line that is not a valid record is skipped with a warning."""
    if not path.is_file():
        return
    with path.open("rb") as handle:
        for number, raw in enumerate(handle, start=1):
            if not raw.endswith(b"\n"):
                return
            try:
                yield SampleResult.model_validate_json(raw)
            except ValueError as exc:
                log.warning("%s:%d is not a valid sample result, skipped: %s", path, number, str(exc)[:200])


def result_key(task: str, sample_id: str) -> str:
    """The identity of a logged sample within a run."""
    return f"{task}\x00{sample_id}"


def write_json_atomic(path: Path, data: Any) -> None:
    """Write JSON to ``path`` through a temporary file and a rename."""
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, sort_keys=False, allow_nan=False) + "\n")
    os.replace(tmp, path)


def config_differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """Top-level config keys whose values differ (ignoring provenance such as the creation time)."""
    ignored = {"created_at", "harness_version", "config_hash"}
    keys = (set(old) | set(new)) - ignored
    return sorted(k for k in keys if old.get(k) != new.get(k))


class RunStore:
    """The files of one run directory."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.config_path = path / CONFIG_FILE
        self.samples_path = path / SAMPLES_FILE
        self.summary_path = path / SUMMARY_FILE
        self._handle: IO[bytes] | None = None

    def read_config(self) -> dict[str, Any]:
        """The run's config; ConfigError when missing or unreadable."""
        try:
            return json.loads(self.config_path.read_text())
        except FileNotFoundError:
            raise ConfigError(f"{self.path} is not a run directory (no {CONFIG_FILE})") from None
        except json.JSONDecodeError as exc:
            raise ConfigError(f"{self.config_path} is not valid JSON: {exc}") from None

    def read_summary(self) -> RunSummary:
        """The run's summary; ConfigError when missing or invalid."""
        if not self.config_path.exists() and not self.summary_path.exists():
            raise ConfigError(f"{self.path} is not a run directory (no {CONFIG_FILE})")
        try:
            return RunSummary.model_validate_json(self.summary_path.read_text())
        except FileNotFoundError:
            raise ConfigError(f"{self.path} has no {SUMMARY_FILE}: the run has not finished once") from None
        except ValueError as exc:
            raise ConfigError(f"{self.summary_path} is not a valid summary: {str(exc)[:300]}") from None

    def open(self, config: dict[str, Any]) -> set[str]:
        """Create or reopen the directory for ``config``; returns the keys of samples already logged.

        A directory holding a run of another configuration is refused, untouched.
        """
        self.path.mkdir(parents=True, exist_ok=True)
        if self.config_path.exists():
            old = self.read_config()
            differing = config_differences(old, config)
            if differing:
                raise ConfigError(
                    f"{self.path} holds a run with a different configuration (differs in: {', '.join(differing)}); "
                    "use another --out, or rerun with the same settings to resume it"
                )
        elif self.samples_path.exists():
            raise ConfigError(f"{self.path} has {SAMPLES_FILE} but no {CONFIG_FILE}; refusing to touch it")
        else:
            write_json_atomic(self.config_path, config)
        self._cut_partial_line()
        done = {result_key(r.task, r.sample_id) for r in iter_results(self.samples_path)}
        self._handle = self.samples_path.open("ab")
        return done

    def _cut_partial_line(self) -> None:
        if not self.samples_path.exists():
            return
        with self.samples_path.open("rb+") as handle:
            handle.seek(0, os.SEEK_END)
            size = handle.tell()
            if size == 0:
                return
            handle.seek(size - 1)
            if handle.read(1) == b"\n":
                return
            position = size
            while position > 0:
                step = min(65536, position)
                handle.seek(position - step)
                chunk = handle.read(step)
                newline = chunk.rfind(b"\n")
                if newline >= 0:
                    handle.truncate(position - step + newline + 1)
                    return
                position -= step
            handle.truncate(0)

    def append(self, result: SampleResult) -> None:
        """Append one result and flush it to the operating system."""
        assert self._handle is not None, "RunStore.open() first"
        self._handle.write(result.model_dump_json().encode() + b"\n")
        self._handle.flush()

    def results(self) -> Iterator[SampleResult]:
        """Stream the logged results, each sample once (the first line wins)."""
        seen: set[str] = set()
        for result in iter_results(self.samples_path):
            key = result_key(result.task, result.sample_id)
            if key not in seen:
                seen.add(key)
                yield result

    def write_summary(self, summary: RunSummary) -> None:
        """Write ``summary.json`` atomically."""
        write_json_atomic(self.summary_path, summary.model_dump(mode="json"))

    def close(self) -> None:
        """Close the log."""
        if self._handle is not None:
            self._handle.close()
            self._handle = None
