"""Read a run directory: ``config.json``, ``summary.json`` and a streamed ``samples.jsonl``.

``samples.jsonl`` is never loaded whole: :func:`iter_samples` yields one
:class:`harness.types.SampleResult` at a time through the harness's one log reader
(:mod:`harness.runlog`), so the leaderboard and the harness read a log the same way.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from harness.types import RunSummary, SampleResult

MAX_JSON_BYTES = 64 * 1024 * 1024


class RunFormatError(ValueError):
    """A run directory is missing a file or holds one that does not parse."""


@dataclass(frozen=True)
class RunDir:
    """A run directory with its parsed config and summary."""

    path: Path
    config: dict[str, Any]
    summary: RunSummary

    @property
    def samples_path(self) -> Path:
        """Where the run's per-sample log lives."""
        return self.path / "samples.jsonl"

    def task_config(self, task: str) -> dict[str, Any]:
        """The ``{name, version, args}`` entry of ``task`` in the config (empty when absent)."""
        for entry in self.config.get("tasks") or []:
            if isinstance(entry, dict) and entry.get("name") == task:
                return entry
        return {}


def _read_json_object(path: Path) -> dict[str, Any]:
    if not path.is_file():
        raise RunFormatError(f"{path}: file not found")
    if path.stat().st_size > MAX_JSON_BYTES:
        raise RunFormatError(f"{path}: larger than {MAX_JSON_BYTES} bytes")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise RunFormatError(f"{path}: not valid JSON ({exc})") from exc
    except RecursionError:
        raise RunFormatError(f"{path}: not valid JSON (nested too deeply)") from None
    if not isinstance(data, dict):
        raise RunFormatError(f"{path}: expected a JSON object, got {type(data).__name__}")
    return data


def load_run(path: str | Path) -> RunDir:
    """Parse ``config.json`` and ``summary.json`` of the run at ``path``."""
    root = Path(path)
    if not root.is_dir():
        raise RunFormatError(f"{root}: not a run directory")
    config = _read_json_object(root / "config.json")
    for key in ("model", "methods", "tasks"):
        if key not in config:
            raise RunFormatError(f"{root / 'config.json'}: missing key {key!r}")
    if not isinstance(config["methods"], list) or not isinstance(config["tasks"], list):
        raise RunFormatError(f"{root / 'config.json'}: 'methods' and 'tasks' must be lists")
    raw_summary = _read_json_object(root / "summary.json")
    try:
        summary = RunSummary.model_validate(raw_summary)
    except ValidationError as exc:
        raise RunFormatError(f"{root / 'summary.json'}: {str(exc)[:500]}") from exc
    except RecursionError:
        raise RunFormatError(f"{root / 'summary.json'}: nested too deeply") from None
    return RunDir(path=root, config=config, summary=summary)


def iter_samples(path: str | Path) -> Iterator[SampleResult]:
    """Stream the records of a ``samples.jsonl`` file (or a run directory holding one), each sample once.

    The harness's own reader and policy (:mod:`harness.runlog`): blank lines are skipped, a
    torn last line is ignored, any other bad line raises :class:`RunFormatError` naming the
    file and line, and a sample logged twice keeps its last record.
    """
    from harness.runlog import LogFormatError, iter_results

    file = Path(path)
    if file.is_dir():
        file = file / "samples.jsonl"
    try:
        yield from iter_results(file)
    except LogFormatError as exc:
        raise RunFormatError(str(exc)) from None


def find_runs(root: str | Path) -> list[Path]:
    """Every run directory (one holding ``summary.json``) at or below ``root``, sorted."""
    base = Path(root)
    if not base.is_dir():
        raise RunFormatError(f"{base}: not a directory")
    return sorted(p.parent for p in base.rglob("summary.json") if (p.parent / "config.json").is_file())
