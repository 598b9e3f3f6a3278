"""Locate the curated specs and signatures shipped under ``tasks/coins/specs/``.

Found on the file system (without importing ``tasks``), so the checker stays usable
without the harness. ``signatures.json`` maps a HumanEval id to its spec file and
signature string.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from coins_rocq.rtypes import Signature, parse_signature

SPECS_DIR = Path(__file__).resolve().parents[1] / "tasks" / "coins" / "specs"


@dataclass(frozen=True)
class CuratedSpec:
    """A curated problem: its HumanEval id, signature and reference spec text."""

    task_id: str
    signature: Signature
    source: str


def curated_index(specs_dir: Path = SPECS_DIR) -> dict[str, dict[str, str]]:
    """The raw ``signatures.json`` table; raises ``FileNotFoundError`` naming the path."""
    path = specs_dir / "signatures.json"
    if not path.is_file():
        raise FileNotFoundError(f"curated signatures not found at {path}")
    return json.loads(path.read_text(encoding="utf-8"))


def curated_specs(specs_dir: Path = SPECS_DIR) -> list[CuratedSpec]:
    """All curated specs, ordered by problem number."""
    index = curated_index(specs_dir)
    out = [
        CuratedSpec(
            task_id, parse_signature(entry["signature"]), (specs_dir / entry["file"]).read_text(encoding="utf-8")
        )
        for task_id, entry in index.items()
    ]
    return sorted(out, key=lambda spec: int(spec.task_id.rsplit("/", 1)[1]))


def curated_signature(task_id: str, specs_dir: Path = SPECS_DIR) -> Signature:
    """The curated signature of ``task_id``; raises ``KeyError`` when the problem is not curated."""
    index = curated_index(specs_dir)
    if task_id not in index:
        raise KeyError(f"{task_id} has no curated signature; pass one with --signature")
    return parse_signature(index[task_id]["signature"])
