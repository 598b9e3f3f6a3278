"""The shape of the authored CWE description templates used by ``cyber-gen/cwe``."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Ticket:
    """A bug ticket: a title, steps to reproduce and the observed behaviour."""

    title: str
    steps: tuple[str, ...]
    observed: str


@dataclass(frozen=True)
class CweTemplates:
    """Templates of one CWE: advisory clauses (completing "..., which ...") and bug tickets."""

    cwe: int
    advisories: tuple[str, ...]
    tickets: tuple[Ticket, ...]
