"""The CWE catalogue bundled with the ``cwe2`` package (MITRE's CWE 4.14, research view 1000).

Gives each weakness's name, abstraction, status, description and its relations in view
1000 (ChildOf, PeerOf, CanPrecede, ...), from which related weaknesses are derived.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from harness.api import ConfigError

RESEARCH_VIEW = "1000"
_RELATION = re.compile(r"NATURE:(\w+):CWE ID:(\d+):VIEW ID:(\d+)")


@dataclass(frozen=True)
class CweEntry:
    """One weakness of the catalogue."""

    id: int
    name: str
    abstraction: str
    status: str
    description: str
    parents: tuple[int, ...]
    peers: tuple[int, ...]

    @property
    def label(self) -> str:
        """``CWE-<n>``."""
        return f"CWE-{self.id}"


def _relations(text: str | None, nature: tuple[str, ...]) -> tuple[int, ...]:
    """Ids related in the research view by one of the ``nature`` relations, in order, deduplicated."""
    found: dict[int, None] = {}
    for kind, cwe_id, view in _RELATION.findall(text or ""):
        if view == RESEARCH_VIEW and kind in nature:
            found.setdefault(int(cwe_id), None)
    return tuple(found)


@lru_cache(maxsize=1)
def catalogue() -> dict[int, CweEntry]:
    """Every weakness of view 1000, by id (read once from ``cwe2``'s bundled CSV)."""
    try:
        from cwe2.database import get_by_category
        from cwe2.mappings import navigate_cwe
    except ImportError as exc:
        raise ConfigError(f"the CWE catalogue needs the 'cwe2' package ({exc})") from None
    entries: dict[int, CweEntry] = {}
    for weakness in get_by_category(navigate_cwe["research_concepts"]["csv_file"]):
        if not str(weakness.cwe_id).isdigit():
            continue
        entry = CweEntry(
            id=int(weakness.cwe_id),
            name=str(weakness.name).strip(),
            abstraction=str(weakness.weakness_abstraction or ""),
            status=str(weakness.status or ""),
            description=str(weakness.description or "").strip(),
            parents=_relations(weakness.related_weaknesses, ("ChildOf",)),
            peers=_relations(weakness.related_weaknesses, ("PeerOf", "CanAlsoBe", "CanPrecede", "CanFollow")),
        )
        entries[entry.id] = entry
    return entries


@lru_cache(maxsize=1)
def children_of() -> dict[int, tuple[int, ...]]:
    """For each id, the ids whose parent it is in view 1000 (sorted)."""
    children: dict[int, list[int]] = {}
    for entry in catalogue().values():
        for parent in entry.parents:
            children.setdefault(parent, []).append(entry.id)
    return {parent: tuple(sorted(kids)) for parent, kids in children.items()}


def cwe_name(cwe_id: int) -> str:
    """The catalogue name of ``cwe_id``; KeyError if it is not in the catalogue."""
    return catalogue()[cwe_id].name


def related(cwe_id: int) -> list[int]:
    """Weaknesses related to ``cwe_id``, nearest first: siblings, parents, children, then peers."""
    entries = catalogue()
    entry = entries[cwe_id]
    kids = children_of()
    ordered: dict[int, None] = {}
    for parent in entry.parents:
        for sibling in kids.get(parent, ()):
            ordered.setdefault(sibling, None)
    for group in (entry.parents, kids.get(cwe_id, ()), entry.peers):
        for other in group:
            ordered.setdefault(other, None)
    ordered.pop(cwe_id, None)
    return [i for i in ordered if i in entries]
