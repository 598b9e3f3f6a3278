"""Loading ConFiQA files from a local path or the hub, skipping and reporting bad items.

A source is a JSON file (a list of items), a folder holding ``ConFiQA-QA.json``,
``ConFiQA-MR.json`` and ``ConFiQA-MC.json``, or a hub dataset id (``miii/ConFiQA``),
fetched through ``huggingface_hub`` (installed with ``datasets``) when online.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from harness.api import ConfigError, parse_json
from tasks.confiqa.records import ConFiQAItem, ItemError, parse_item

Subset = Literal["qa", "mr", "mc"]
SUBSETS: tuple[Subset, ...] = ("qa", "mr", "mc")
HUB_ID = "miii/ConFiQA"
log = logging.getLogger("tasks.confiqa")


@dataclass(frozen=True)
class LoadProblem:
    """A skipped item: its 0-based index in the file and why it was rejected."""

    index: int
    reason: str

    def __str__(self) -> str:
        return f"item {self.index}: {self.reason}"


@dataclass
class LoadResult:
    """Valid items with their original indexes, and the problems of the skipped ones."""

    source: str
    items: list[tuple[int, ConFiQAItem]] = field(default_factory=list)
    problems: list[LoadProblem] = field(default_factory=list)


def file_name(subset: Subset) -> str:
    """The upstream file name of a subset, e.g. ``ConFiQA-MR.json``."""
    return f"ConFiQA-{subset.upper()}.json"


def parse_items(raw: Any, source: str) -> LoadResult:
    """Validate a decoded JSON list; bad items are skipped and reported with their index."""
    if not isinstance(raw, list):
        raise ConfigError(f"{source}: expected a JSON list of ConFiQA items, got {type(raw).__name__}")
    result = LoadResult(source=source)
    for index, entry in enumerate(raw):
        try:
            result.items.append((index, parse_item(entry)))
        except ItemError as exc:
            result.problems.append(LoadProblem(index, str(exc)))
        except ValueError as exc:
            result.problems.append(LoadProblem(index, f"invalid item: {str(exc).splitlines()[0]}"))
    for problem in result.problems[:20]:
        log.warning("%s: skipped %s", source, problem)
    if len(result.problems) > 20:
        log.warning("%s: skipped %d more malformed items", source, len(result.problems) - 20)
    kept = [(index, note) for index, item in result.items for note in item.ignored]
    for index, note in kept[:20]:
        log.warning("%s: item %d kept and scored; %s", source, index, note)
    if len(kept) > 20:
        log.warning("%s: %d more notes on kept items", source, len(kept) - 20)
    if raw and not result.items:
        raise ConfigError(f"{source}: all {len(raw)} items are malformed; first: {result.problems[0]}")
    return result


def read_json_file(path: Path) -> Any:
    """Decode a JSON file, with errors that name the file."""
    try:
        raw = path.read_bytes()
    except OSError as exc:
        raise ConfigError(f"cannot read ConFiQA file {path}: {exc.strerror or exc}") from None
    return parse_json(raw, str(path))


def _looks_like_path(source: str) -> bool:
    return source.startswith(("/", ".", "~")) or source.endswith(".json") or Path(source).expanduser().exists()


def _hub_file(hub_id: str, subset: Subset) -> Path:
    from harness.api import hub_unavailable

    unavailable = hub_unavailable()  # offline or unreachable: only a cached copy can be used, at once
    hint = (
        "pass -T data=/path/to/ConFiQA-files (a file or a folder holding "
        f"{file_name(subset)}), or use the offline generator task confiqa-gen/{subset}"
    )
    try:
        from huggingface_hub import hf_hub_download
        from huggingface_hub.errors import LocalEntryNotFoundError
    except ImportError:
        raise ConfigError(f"loading {hub_id} needs huggingface_hub (installed with datasets); {hint}") from None
    try:
        return Path(
            hf_hub_download(hub_id, file_name(subset), repo_type="dataset", local_files_only=unavailable is not None)
        )
    except LocalEntryNotFoundError:
        why = unavailable or "the hub is unavailable"
        raise ConfigError(f"ConFiQA data {hub_id} cannot be fetched: {why}, and no copy is cached; {hint}") from None
    except Exception as exc:
        raise ConfigError(
            f"cannot fetch {file_name(subset)} from the hub dataset {hub_id}: "
            f"{type(exc).__name__}: {str(exc)[:200]}; {hint}"
        ) from None


def resolve_source(source: str, subset: Subset) -> Path:
    """The JSON file for ``subset``: a file, a folder holding the upstream file, or a hub id."""
    path = Path(source).expanduser()
    if path.is_dir():
        candidate = path / file_name(subset)
        if not candidate.is_file():
            raise ConfigError(f"{path} holds no {file_name(subset)}")
        return candidate
    if path.is_file():
        return path
    if _looks_like_path(source) or source.count("/") != 1:
        raise ConfigError(f"ConFiQA data not found: {source} (expected a file, a folder or a hub id owner/name)")
    return _hub_file(source, subset)


def load_subset(source: str, subset: Subset) -> LoadResult:
    """Load and validate one subset from a file, a folder or a hub id."""
    path = resolve_source(source, subset)
    return parse_items(read_json_file(path), str(path))


def dump_items(items: Sequence[dict[str, Any]], path: Path) -> None:
    """Write items as an upstream-style JSON list (used to export generated data)."""
    path.write_text(json.dumps(list(items), ensure_ascii=False, indent=1), encoding="utf-8")
