"""Read a run directory: ``config.json``, ``summary.json`` and a streamed ``samples.jsonl``.

The files are read by the harness's one run-format reader (:class:`harness.runformat.RunFiles`),
which checks each file's format version. ``samples.jsonl`` is never loaded whole:
:func:`iter_samples` yields one :class:`harness.types.SampleResult` at a time through the
harness's one log reader (:mod:`harness.runlog`), so the leaderboard and the harness read a
log the same way.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from harness.runformat import CONFIG_FILE, SUMMARY_FILE, RunFiles, RunFormatError
from harness.types import RunSummary, SampleResult

__all__ = ["RunDir", "RunFormatError", "count_samples", "find_runs", "iter_samples", "load_run", "sample_lines"]


@dataclass(frozen=True)
class RunDir:
    """A run directory with its parsed config and summary."""

    path: Path
    config: dict[str, Any]
    summary: RunSummary

    @property
    def samples_path(self) -> Path:
        """Where the run's per-sample log lives."""
        return RunFiles(self.path).samples_path

    def task_config(self, task: str) -> dict[str, Any]:
        """The ``{name, version, args}`` entry of ``task`` in the config (empty when absent)."""
        for entry in self.config.get("tasks") or []:
            if isinstance(entry, dict) and entry.get("name") == task:
                return entry
        return {}


def load_run(path: str | Path) -> RunDir:
    """Parse ``config.json`` and ``summary.json`` of the run at ``path`` (through the harness's run-format reader)."""
    root = Path(path)
    if not root.is_dir():
        raise RunFormatError(f"{root}: not a run directory")
    files = RunFiles(root)
    config = files.read_config()
    for key in ("model", "methods", "tasks"):
        if key not in config:
            raise RunFormatError(f"{files.config_path}: missing key {key!r}")
    if not isinstance(config["methods"], list) or not isinstance(config["tasks"], list):
        raise RunFormatError(f"{files.config_path}: 'methods' and 'tasks' must be lists")
    return RunDir(path=root, config=config, summary=files.read_summary())


def iter_samples(path: str | Path, winners: set[int] | None = None) -> Iterator[SampleResult]:
    """Stream the records of a ``samples.jsonl`` file (or a run directory holding one), each sample once.

    The harness's own reader and policy (:mod:`harness.runlog`): blank lines are skipped, a
    torn last line is ignored, any other bad line raises :class:`RunFormatError` naming the
    file and line, and a sample logged twice keeps its last record. ``winners`` (from
    :func:`count_samples` on this file) saves the reader's first pass.
    """
    from harness.runlog import LogFormatError, iter_results

    file = _log_file(path)
    try:
        yield from iter_results(file, winners)
    except LogFormatError as exc:
        raise RunFormatError(str(exc)) from None


def count_samples(path: str | Path) -> tuple[dict[str, int], set[int]]:
    """How many samples each task logged, and the lines that win (for :func:`iter_samples`), reading only
    each line's identity."""
    from harness.runlog import LogFormatError, key_parts, winning_lines

    try:
        lines = winning_lines(_log_file(path))
    except LogFormatError as exc:
        raise RunFormatError(str(exc)) from None
    counts: dict[str, int] = {}
    for key in lines:
        task = key_parts(key)[0]
        counts[task] = counts.get(task, 0) + 1
    return counts, set(lines.values())


def sample_lines(path: str | Path) -> dict[tuple[str, str], int]:
    """The line of each (task, sample id)'s winning record, reading only each line's identity: with it,
    :func:`iter_samples` parses just the records a caller wants."""
    from harness.runlog import LogFormatError, key_parts, winning_lines

    try:
        lines = winning_lines(_log_file(path))
    except LogFormatError as exc:
        raise RunFormatError(str(exc)) from None
    return {key_parts(key): number for key, number in lines.items()}


def _log_file(path: str | Path) -> Path:
    file = Path(path)
    if file.is_dir():
        RunFiles(file).check_version()
        file = RunFiles(file).samples_path
    return file


def find_runs(root: str | Path) -> list[Path]:
    """Every run directory (one holding ``summary.json`` and ``config.json``) at or below ``root``, sorted."""
    base = Path(root)
    if not base.is_dir():
        raise RunFormatError(f"{base}: not a directory")
    return sorted(p.parent for p in base.rglob(SUMMARY_FILE) if (p.parent / CONFIG_FILE).is_file())
