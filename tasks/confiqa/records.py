"""One ConFiQA item, and parsing it safely from the upstream JSON.

Upstream stores paths and triples as Python-repr strings (``"[('Q1', 'P86', 'Q2')]"``);
they are parsed with ``ast.literal_eval`` (never ``eval``) and checked for shape. MC items
carry an ``orig`` field and may lack ``orig_triple``/``cf_triple``.
"""

from __future__ import annotations

import ast
from typing import Any

from pydantic import BaseModel, ConfigDict

Triple = tuple[str, str, str]
MAX_REPR_CHARS = 100_000
MAX_TEXT_CHARS = 200_000
PATH_FIELDS = ("orig_path", "cf_path", "orig_path_labeled", "cf_path_labeled")
TRIPLE_FIELDS = ("orig_triple", "cf_triple")


class ItemError(ValueError):
    """A ConFiQA item is malformed; the message names the field and the problem."""


class ConFiQAItem(BaseModel):
    """A validated ConFiQA item (QA, MR or MC)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    question: str
    orig_answer: str
    cf_answer: str
    orig_alias: tuple[str, ...] = ()
    cf_alias: tuple[str, ...] = ()
    orig_context: str
    cf_context: str
    orig_context_piece: str | None = None
    cf_context_piece: str | None = None
    orig_path: tuple[Triple, ...] | None = None
    cf_path: tuple[Triple, ...] | None = None
    orig_path_labeled: tuple[Triple, ...] | None = None
    cf_path_labeled: tuple[Triple, ...] | None = None
    orig_triple: Triple | None = None
    cf_triple: Triple | None = None
    orig: Any = None
    ignored: tuple[str, ...] = ()

    @property
    def source_triple(self) -> Triple | None:
        """The fact the item was built from: its original triple, else the first of its original path."""
        return self.orig_triple or (self.orig_path[0] if self.orig_path else None)

    @property
    def hops(self) -> int | None:
        """Number of triples in the original path, when it is known."""
        return len(self.orig_path) if self.orig_path is not None else None


def _literal(text: Any, field: str) -> Any:
    if not isinstance(text, str):
        return text
    if len(text) > MAX_REPR_CHARS:
        raise ItemError(f"{field}: repr string longer than {MAX_REPR_CHARS} characters")
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError) as exc:
        raise ItemError(f"{field}: not a Python literal ({type(exc).__name__}): {text[:80]!r}") from None


def _triple(value: Any, field: str) -> Triple:
    if isinstance(value, (list, tuple)) and len(value) == 3 and all(isinstance(v, str) for v in value):
        return (value[0], value[1], value[2])
    raise ItemError(f"{field}: expected a triple of 3 strings, got {str(value)[:80]!r}")


def parse_triple(raw: Any, field: str) -> Triple:
    """A triple from its repr string (or an already-parsed list/tuple)."""
    return _triple(_literal(raw, field), field)


def parse_path(raw: Any, field: str) -> tuple[Triple, ...]:
    """A non-empty path of triples from its repr string (or an already-parsed list)."""
    value = _literal(raw, field)
    if not isinstance(value, (list, tuple)) or not value:
        raise ItemError(f"{field}: expected a non-empty list of triples")
    return tuple(_triple(v, f"{field}[{i}]") for i, v in enumerate(value))


def _text(raw: dict[str, Any], field: str, required: bool = True) -> str | None:
    value = raw.get(field)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value.strip():
        raise ItemError(f"{field}: {'missing' if value is None else 'expected a non-empty string'}")
    if len(value) > MAX_TEXT_CHARS:
        raise ItemError(f"{field}: longer than {MAX_TEXT_CHARS} characters")
    return value


def _aliases(raw: dict[str, Any], field: str) -> tuple[str, ...]:
    value = _literal(raw.get(field), field)
    if value is None:
        return ()
    if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
        raise ItemError(f"{field}: expected a list of strings")
    return tuple(v for v in value if v.strip())


def parse_item(raw: Any) -> ConFiQAItem:
    """Validate one upstream (or generated) item; raise ItemError naming what makes it unscorable.

    As the authors' evaluation, an item is scored whatever its path and triple fields hold: one
    that cannot be read is left out of the item and named in ``ignored``, as is an item whose
    counterfactual answer equals its original one.
    """
    if not isinstance(raw, dict):
        raise ItemError(f"expected a JSON object, got {type(raw).__name__}")
    fields: dict[str, Any] = {
        "question": _text(raw, "question"),
        "orig_answer": _text(raw, "orig_answer"),
        "cf_answer": _text(raw, "cf_answer"),
        "orig_alias": _aliases(raw, "orig_alias"),
        "cf_alias": _aliases(raw, "cf_alias"),
        "orig_context": _text(raw, "orig_context"),
        "cf_context": _text(raw, "cf_context"),
        "orig_context_piece": _text(raw, "orig_context_piece", required=False),
        "cf_context_piece": _text(raw, "cf_context_piece", required=False),
        "orig": raw.get("orig"),
    }
    ignored = []
    for name in (*PATH_FIELDS, *TRIPLE_FIELDS):
        if raw.get(name) is None:
            continue
        try:
            fields[name] = parse_path(raw[name], name) if name in PATH_FIELDS else parse_triple(raw[name], name)
        except ItemError as exc:
            ignored.append(str(exc))
    if fields["orig_answer"].strip().lower() == fields["cf_answer"].strip().lower():
        ignored.append("cf_answer: equals orig_answer (no knowledge conflict; scored all the same, as upstream)")
    return ConFiQAItem(**fields, ignored=tuple(ignored))
