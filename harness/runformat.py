"""The run-directory format: its file names, its version, and the one reader of its files.

A run directory holds ``config.json`` (what was run), ``samples.jsonl`` (one
:class:`~harness.types.SampleResult` a line, read by :mod:`harness.runlog`) and ``summary.json``
(a :class:`~harness.types.RunSummary`). ``config.json`` and ``summary.json`` carry the format's
version as ``format_version``; a file without one was written before versions were recorded and
is version 1. A file of a newer version than this code knows is refused, saying so, rather than
misread. Every reader of run directories (the store, replay, the CLI, the leaderboard) goes
through :class:`RunFiles`, so each file is checked and parsed one way.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from harness.json_input import JsonInputError, read_json
from harness.runlog import iter_results
from harness.types import RunSummary, SampleResult

FORMAT_VERSION = 3
"""The run format this code writes, and the newest it reads. Format 2 added each sample's transcript
(``SampleResult.transcript``, referenced by its calls' ``messages``); a format 1 log reads as before,
without transcripts. Format 3 stores a call's reply that is a transcript message as a reference to it
(``"reply"``) and a simulated user's view in the conversation's roles (``roles_swapped``), so that a
format 2 reader cannot read it; format 1 and 2 logs read as before."""
VERSION_KEY = "format_version"

CONFIG_FILE = "config.json"
SAMPLES_FILE = "samples.jsonl"
SUMMARY_FILE = "summary.json"
LOCK_FILE = ".lock"
"""Held (``flock``) by the one process writing the run, see :mod:`harness.run_lock`."""
HISTORY_PREFIX = "samples.before-rescore"
"""A log a rescore replaced is kept as ``samples.before-rescore.<n>.jsonl``."""

MAX_JSON_BYTES = 64 * 1024 * 1024
"""The largest ``config.json`` or ``summary.json`` read (far beyond a real one)."""


class RunFormatError(JsonInputError):
    """A run directory is missing a file, holds one that does not parse, or is of a newer format."""


def format_version(data: dict[str, Any], path: Path) -> int:
    """The format version ``data`` (read from ``path``) declares: absent is 1; newer than this code is refused."""
    version = data.get(VERSION_KEY, 1)
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise RunFormatError(f"{path}: {VERSION_KEY} must be a positive integer, got {version!r}")
    if version > FORMAT_VERSION:
        raise RunFormatError(
            f"{path}: written in run format {version}, newer than this frontier-evals reads "
            f"(format {FORMAT_VERSION}); upgrade frontier-evals to read this run"
        )
    return version


def versioned(document: dict[str, Any]) -> dict[str, Any]:
    """``document`` as written to a run file: the format version first, then its fields."""
    return {VERSION_KEY: FORMAT_VERSION, **{k: v for k, v in document.items() if k != VERSION_KEY}}


def read_json_object(path: Path) -> dict[str, Any]:
    """The JSON object in ``path``, its format version checked and removed; RunFormatError otherwise."""
    data = read_json(path, MAX_JSON_BYTES, RunFormatError)
    if not isinstance(data, dict):
        raise RunFormatError(f"{path}: expected a JSON object, got {type(data).__name__}")
    format_version(data, path)
    data.pop(VERSION_KEY, None)
    return data


@dataclass(frozen=True)
class RunFiles:
    """The files of one run directory, read one way."""

    path: Path

    @property
    def config_path(self) -> Path:
        """Where the run's config is."""
        return self.path / CONFIG_FILE

    @property
    def samples_path(self) -> Path:
        """Where the run's per-sample log is."""
        return self.path / SAMPLES_FILE

    @property
    def summary_path(self) -> Path:
        """Where the run's summary is."""
        return self.path / SUMMARY_FILE

    def read_config(self) -> dict[str, Any]:
        """The run's config (without its format version); RunFormatError when missing, unreadable or newer."""
        if not self.config_path.is_file():
            raise RunFormatError(f"{self.path}: not a run directory (no {CONFIG_FILE})")
        return read_json_object(self.config_path)

    def read_summary(self) -> RunSummary:
        """The run's summary; RunFormatError when missing, invalid, or when it or the config is of a newer format."""
        if not self.config_path.is_file() and not self.summary_path.is_file():
            raise RunFormatError(f"{self.path}: not a run directory (no {CONFIG_FILE})")
        self.check_version()
        if not self.summary_path.is_file():
            raise RunFormatError(f"{self.path} has no {SUMMARY_FILE}: the run has not finished once")
        data = read_json_object(self.summary_path)
        try:
            return RunSummary.model_validate(data)
        except ValidationError as exc:
            raise RunFormatError(f"{self.summary_path}: not a valid summary: {str(exc)[:300]}") from None
        except RecursionError:
            raise RunFormatError(f"{self.summary_path}: nested too deeply") from None

    def check_version(self) -> None:
        """Refuse a run whose config is of a newer format (a run without a config is left to its log's reader)."""
        if self.config_path.is_file():
            self.read_config()

    def results(self, winners: set[int] | None = None) -> Iterator[SampleResult]:
        """The logged results, each sample once (its last record wins; see :mod:`harness.runlog`)."""
        return iter_results(self.samples_path, winners)
