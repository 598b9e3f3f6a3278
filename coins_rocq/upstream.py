"""Read the signature of a spec written in the upstream human-spec format.

Upstream files (``newspec/<id>.v``) define a relational ``Definition Spec (inputs...)
(output) : Prop`` (also named ``Spec'``, ``problem_<N>_spec`` or ``<name>_spec``) and
optionally ``Definition Pre (inputs...) : Prop`` (or ``problem_<N>_pre``). The types of
the binders give the signature: ``string`` or ``list ascii``, ``Z``, ``nat``, ``R``,
``Q``, ``bool``, ``ascii``, lists, pairs and options, through the file's own type
abbreviations (``Definition Grid := list (list nat).``). The spec is the definition with
one more binder than the Python entry point has arguments, chosen by name in that order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from coins_rocq.rtypes import ATOMS, Param, RType, Signature, TypeSyntaxError, closing_paren, parse_type
from coins_rocq.safety import has_top_level_assign
from coins_rocq.sentences import SentenceError, split_sentences

_DEFINITION = re.compile(r"^(?:Local\s+)?Definition\s+([A-Za-z_][A-Za-z0-9_']*)\s*(.*)$", re.DOTALL)
_QUALIFIED = re.compile(r"\b(?:[A-Za-z_][A-Za-z0-9_]*\.)+([A-Za-z_][A-Za-z0-9_]*)\b")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_']*")


class UpstreamFormatError(ValueError):
    """The file defines no spec with a signature this checker can read."""


@dataclass(frozen=True)
class _Definition:
    """A ``Definition``'s name, its binders as (name, type text) and its declared type (or None)."""

    name: str
    binders: tuple[tuple[str, str], ...]
    declared: str | None
    body: str


def upstream_signature(source: str, entry_point: str, arity: int, number: int | None = None) -> Signature:
    """The signature of the upstream-format spec in ``source`` for an entry point of ``arity`` arguments."""
    try:
        sentences = split_sentences(source)
    except SentenceError as exc:
        raise UpstreamFormatError(f"cannot be parsed into sentences: {exc}") from None
    definitions = [d for d in (_parse_definition(s.code) for s in sentences) if d is not None]
    aliases = _type_aliases(definitions)
    preferred = [f"problem_{number}_spec", "Spec", "Spec'", f"{entry_point}_spec"]
    props = [d for d in definitions if d.declared == "Prop" and len(d.binders) == arity + 1]
    named = [d for name in preferred for d in props if d.name == name]
    fallback = [d for d in reversed(props) if d.name.rstrip("'").lower().endswith("spec")]
    if not named and not fallback:
        raise UpstreamFormatError(
            f"no 'Definition Spec (...) : Prop' with {arity + 1} arguments ({arity} inputs and the output)"
        )
    spec = (named or fallback)[0]
    types = [_read_type(text, aliases, spec.name) for _, text in spec.binders]
    params = tuple(Param(name, rtype) for (name, _), rtype in zip(spec.binders, types, strict=True))
    pre_names = [f"problem_{number}_pre", "Pre", f"{entry_point}_pre"]
    pre_ident = next(
        (
            d.name
            for name in pre_names
            for d in definitions
            if d.name == name
            and d.declared == "Prop"
            and len(d.binders) == arity
            and [_try_type(t, aliases) for _, t in d.binders] == types[:-1]
        ),
        None,
    )
    return Signature(
        entry_point, params[:-1], params[-1].rtype, spec_ident=spec.name, pre_ident=pre_ident or f"{entry_point}_pre"
    )


def _parse_definition(code: str) -> _Definition | None:
    """Name, binders and declared type of a ``Definition`` sentence's code; None for other sentences."""
    match = _DEFINITION.match(code.strip())
    if not match or not has_top_level_assign(code):
        return None
    name, rest = match.group(1), match.group(2)
    binders: list[tuple[str, str]] = []
    pos = 0
    while True:
        while pos < len(rest) and rest[pos].isspace():
            pos += 1
        if pos >= len(rest) or rest[pos] != "(":
            break
        end = closing_paren(rest, pos)
        if end < 0:
            return None
        names, colon, rtype = rest[pos + 1 : end].partition(":")
        if not colon:
            return None
        binders += [(n, rtype.strip()) for n in names.split()]
        pos = end + 1
    tail = rest[pos:].strip()
    declared = None
    if tail.startswith(":") and not tail.startswith(":="):
        declared, _, body = tail[1:].partition(":=")
        declared = declared.strip()
    else:
        body = tail[2:] if tail.startswith(":=") else tail
    return _Definition(name, tuple(binders), declared, body.strip().rstrip(".").strip())


def _type_aliases(definitions: list[_Definition]) -> dict[str, str]:
    """The file's type abbreviations (``Definition Grid := list (list nat).``), as type text."""
    aliases: dict[str, str] = {}
    for d in definitions:
        if d.binders or d.declared not in (None, "Type", "Set"):
            continue
        if _try_type(d.body, aliases) is not None:
            aliases[d.name] = d.body
    return aliases


def _normalise(text: str, aliases: dict[str, str]) -> str:
    """Type text with qualified atoms shortened and abbreviations expanded."""
    text = _QUALIFIED.sub(lambda m: m.group(1) if m.group(1) in ATOMS else m.group(0), text)
    return _WORD.sub(
        lambda m: f"({_normalise(aliases[m.group(0)], aliases)})" if m.group(0) in aliases else m.group(0), text
    )


def _try_type(text: str, aliases: dict[str, str]) -> RType | None:
    try:
        return parse_type(_normalise(text, aliases))
    except TypeSyntaxError:
        return None


def _read_type(text: str, aliases: dict[str, str], spec: str) -> RType:
    rtype = _try_type(text, aliases)
    if rtype is None:
        raise UpstreamFormatError(
            f"{spec}: argument type {text!r} is not one the checker can render "
            f"(supported: {', '.join(ATOMS)}, list, option, *)"
        )
    return rtype
