"""Read the signature of a spec written in the upstream human-spec format.

Upstream files (``newspec/<id>.v``) define a relational spec (``Definition Spec (inputs...)
(output) : Prop``, also named ``Spec'``, ``Spec_logic``, ``problem_<N>_spec`` or
``<name>_spec``) and optionally ``Definition Pre (inputs...) : Prop`` (or ``problem_<N>_pre``,
``<name>_pre``). The spec is found by what it is: a ``Prop``-valued ``Definition``, ``Fixpoint``
or ``Inductive`` (binders in parentheses and/or arrows in its declared type) whose binders fit
the entry point's arguments and output on the test cases (``coins_rocq.align``: in any order, the
output whole, split over several binders, or absent for a predicate). Among those that fit,
one named like a spec wins over one that is not, then one no other definition uses (helpers are
used by the spec), then the usual names (``problem_<N>_spec``, ``Spec``, ``Spec'``,
``<name>_spec``), then the one that fits more cases, then the last in the file; ``spec=NAME``
chooses it outright. The types of the binders give the signature: ``string`` or ``list ascii``,
``Z``, ``nat``, ``R``, ``Q``, ``bool``, ``ascii``, lists, pairs, options and ``sum``, through the
file's own type abbreviations (``Definition Grid := list (list nat).``) and its own inductive
types (``Inductive result := NoAnswer | Binary (s : string).``) and records (``Record pair :=
mk { a : Z; b : Z }.``, one constructor whose arguments are the fields), whose constructors are
read from their sentences.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from coins_rocq.align import Alignment, AlignmentError, align
from coins_rocq.rtypes import (
    ATOMS,
    SPEC_MODULE,
    Ctor,
    Layout,
    Param,
    RType,
    Signature,
    TypeSyntaxError,
    closing_paren,
    parse_type,
)
from coins_rocq.safety import has_top_level_assign
from coins_rocq.sentences import SentenceError, split_sentences

if TYPE_CHECKING:
    from coins_rocq.obligations import Case

_HEAD = re.compile(
    r"^(?:Local\s+)?(Definition|Fixpoint|Inductive|Variant|Record)\s+([A-Za-z_][A-Za-z0-9_']*)\s*(.*)$", re.DOTALL
)
_SHORTENED = (*ATOMS, "list", "option", "sum")
_QUALIFIED = re.compile(r"\b(?:[A-Za-z_][A-Za-z0-9_]*\.)+([A-Za-z_][A-Za-z0-9_]*)\b")
_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_']*")
_STRUCT = re.compile(r"^\{\s*struct\s+[A-Za-z_][A-Za-z0-9_']*\s*\}")


class UpstreamFormatError(ValueError):
    """The file defines no spec with a signature this checker can read."""


@dataclass(frozen=True)
class _Definition:
    """A definition's head, name, binders (parenthesised, then the arrows of its declared type),
    the declared result (``Prop``, ``Type``, ... or None) and its body."""

    head: str
    name: str
    binders: tuple[tuple[str, str], ...]
    declared: str | None
    body: str


def read_upstream(source: str, task_id: str, spec: str | None = None) -> Signature:
    """The signature of ``source``'s spec for the HumanEval problem ``task_id`` (its cases are the evidence)."""
    from coins_rocq.humaneval import entry_params, humaneval_cases, problem

    entry = problem(task_id)["entry_point"]
    number = int(task_id.rsplit("/", 1)[1])
    params = entry_params(task_id)
    cases = humaneval_cases(task_id)
    return upstream_signature(source, entry, len(params), number, cases=cases, param_names=params, spec=spec)


def upstream_signature(
    source: str,
    entry_point: str,
    arity: int,
    number: int | None = None,
    *,
    cases: Sequence[Case] = (),
    param_names: Sequence[str] | None = None,
    spec: str | None = None,
) -> Signature:
    """The signature of the upstream-format spec in ``source`` for an entry point of ``arity`` arguments.

    ``cases``: the test cases whose values align the binders (without them, names and binder
    order decide); ``param_names``: the entry point's parameter names; ``spec``: the name of
    the definition to use, overriding the search.
    """
    try:
        sentences = split_sentences(source)
    except SentenceError as exc:
        raise UpstreamFormatError(f"cannot be parsed into sentences: {exc}") from None
    definitions = [d for d in (_parse_definition(s.code) for s in sentences) if d is not None]
    aliases, named = _types(definitions)
    names = list(param_names) if param_names is not None else [f"arg{i}" for i in range(arity)]
    if len(names) != arity:
        raise UpstreamFormatError(f"{len(names)} parameter names for {arity} arguments")
    inputs = [c.inputs for c in cases]
    outputs = [c.output for c in cases]
    props = [d for d in definitions if d.declared == "Prop"]
    if spec is not None:
        props = [d for d in props if d.name == spec]
        if not props:
            raise UpstreamFormatError(f"--spec {spec}: the file has no Prop-valued definition named {spec!r}")
    aligned: list[tuple[int, _Definition, Alignment]] = []
    refused: list[str] = []
    for position, d in enumerate(props):
        try:
            types = [parse_type(_normalise(t, aliases), named) for _, t in d.binders]
            alignment = align(list(zip([n for n, _ in d.binders], types, strict=True)), names, outputs, inputs)
        except TypeSyntaxError as exc:
            refused.append(f"{d.name}: a binder's type is not one the checker can render ({exc})")
            continue
        except AlignmentError as exc:
            refused.append(f"{d.name}: {exc}")
            continue
        aligned.append((position, d, alignment))
    if not aligned:
        why = "; ".join(refused[-3:]) or "there is none"
        raise UpstreamFormatError(f"no Prop-valued definition fits {entry_point}'s {arity} arguments and output: {why}")
    used = _used_by_others(definitions)
    preferred = [f"problem_{number}_spec", "Spec", "Spec'", f"{entry_point}_spec"]
    position, chosen, alignment = min(
        aligned,
        key=lambda item: (
            "spec" not in item[1].name.lower(),
            item[1].name in used,
            preferred.index(item[1].name) if item[1].name in preferred else len(preferred),
            -item[2].fit,
            -item[0],
        ),
    )
    params = tuple(Param(name, rtype) for name, rtype in zip(names, alignment.input_types, strict=True))
    pre = _precondition(definitions, aliases, named, number, entry_point, names, inputs, alignment.input_types)
    return Signature(
        entry_point,
        params,
        alignment.output_type,
        spec_ident=chosen.name,
        pre_ident=pre.name if pre else f"{entry_point}_pre",
        spec_layout=alignment.layout,
        pre_layout=pre.layout if pre else None,
    )


@dataclass(frozen=True)
class _Pre:
    """The precondition's name and how its binders take the inputs."""

    name: str
    layout: Layout


def _precondition(
    definitions: list[_Definition],
    aliases: dict[str, str],
    named: dict[str, RType],
    number: int | None,
    entry_point: str,
    names: list[str],
    inputs: list[tuple[object, ...]],
    input_types: tuple[RType, ...],
) -> _Pre | None:
    """The precondition by its usual names, its binders aligned with the inputs and typed as the spec's."""
    for wanted in (f"problem_{number}_pre", "Pre", f"{entry_point}_pre"):
        for d in definitions:
            if d.name != wanted or d.declared != "Prop":
                continue
            try:
                types = [parse_type(_normalise(t, aliases), named) for _, t in d.binders]
                found = align(list(zip([n for n, _ in d.binders], types, strict=True)), names, None, inputs)
            except (TypeSyntaxError, AlignmentError):
                continue
            if found.input_types == input_types:
                return _Pre(d.name, found.layout)
    return None


def _parse_definition(code: str) -> _Definition | None:
    """Head, name, binders and declared type of a definition sentence's code; None for other sentences."""
    match = _HEAD.match(code.strip())
    if not match or not has_top_level_assign(code):
        return None
    head, name, rest = match.groups()
    parsed = _binders(rest)
    if parsed is None:
        return None
    binders, pos = parsed
    tail = _STRUCT.sub("", rest[pos:].strip()).strip()
    declared = None
    if tail.startswith(":") and not tail.startswith(":="):
        declared, _, body = _split_assign(tail[1:])
        arrows = _top_level_split(declared, "->")
        declared = arrows[-1].strip()
        binders += [(f"_{len(binders) + i + 1}", t.strip()) for i, t in enumerate(arrows[:-1])]
    else:
        body = tail[2:] if tail.startswith(":=") else tail
    return _Definition(head, name, tuple(binders), declared, body.strip().rstrip(".").strip())


def _binders(text: str) -> tuple[list[tuple[str, str]], int] | None:
    """The parenthesised binders at the start of ``text`` as (name, type text), and where they end."""
    binders: list[tuple[str, str]] = []
    pos = 0
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos >= len(text) or text[pos] != "(":
            return binders, pos
        end = closing_paren(text, pos)
        if end < 0:
            return None
        names, colon, rtype = text[pos + 1 : end].partition(":")
        if not colon or rtype.startswith("="):
            return None
        binders += [(n, rtype.strip()) for n in names.split()]
        pos = end + 1


def _split_assign(text: str) -> tuple[str, str, str]:
    """``text`` split at its first top-level ``:=``."""
    depth = 0
    for i, ch in enumerate(text):
        depth += {"(": 1, "[": 1, "{": 1, ")": -1, "]": -1, "}": -1}.get(ch, 0)
        if depth == 0 and text.startswith(":=", i):
            return text[:i], ":=", text[i + 2 :]
    return text, "", ""


def _top_level_split(text: str, separator: str) -> list[str]:
    """``text`` split at each ``separator`` outside parentheses."""
    parts, depth, start, i = [], 0, 0, 0
    while i < len(text):
        ch = text[i]
        depth += {"(": 1, ")": -1}.get(ch, 0)
        if depth == 0 and text.startswith(separator, i):
            parts.append(text[start:i])
            i += len(separator)
            start = i
            continue
        i += 1
    return [*parts, text[start:]]


def _types(definitions: list[_Definition]) -> tuple[dict[str, str], dict[str, RType]]:
    """The file's type abbreviations (as type text) and its own inductive types, in file order."""
    aliases: dict[str, str] = {}
    named: dict[str, RType] = {}
    for d in definitions:
        if d.declared not in (None, "Type", "Set"):
            continue
        if d.head in ("Inductive", "Variant", "Record"):
            inductive = (_record if d.head == "Record" else _inductive)(d, aliases, named)
            if inductive is not None:
                named[d.name] = inductive
        elif not d.binders and _try_type(d.body, aliases, named) is not None:
            aliases[d.name] = d.body
    return aliases, named


def _inductive(d: _Definition, aliases: dict[str, str], named: dict[str, RType]) -> RType | None:
    """A parameterless, non-recursive inductive type whose constructors' arguments are all renderable."""
    if d.binders or re.search(r"\bwith\b", d.body):
        return None
    ctors = []
    for text in _top_level_split(d.body, "|"):
        text = text.strip()
        if not text:
            continue
        match = _WORD.match(text)
        if match is None:
            return None
        parsed = _binders(text[match.end() :])
        if parsed is None:
            return None
        binders, pos = parsed
        types = [t for _, t in binders]
        tail = text[match.end() + pos :].strip()
        if tail:
            if not tail.startswith(":"):
                return None
            arrows = _top_level_split(tail[1:], "->")
            if arrows[-1].strip() != d.name:
                return None
            types += [t.strip() for t in arrows[:-1]]
        args = _constructor_args(d.name, types, aliases, named)
        if args is None:
            return None
        ctors.append(Ctor(f"{SPEC_MODULE}.{match.group(0)}", args))
    return RType("ind", name=f"{SPEC_MODULE}.{d.name}", ctors=tuple(ctors)) if ctors else None


def _constructor_args(
    type_name: str, types: list[str], aliases: dict[str, str], named: dict[str, RType]
) -> tuple[RType, ...] | None:
    """A constructor's argument types; None when one is not renderable or mentions ``type_name`` (recursion)."""
    if any(re.search(rf"\b{re.escape(type_name)}\b", t) for t in types):
        return None
    args = [_try_type(t, aliases, named) for t in types]
    return None if any(a is None for a in args) else tuple(a for a in args if a is not None)


_RECORD_BODY = re.compile(r"^([A-Za-z_][A-Za-z0-9_']*)?\s*\{(.*)\}$", re.DOTALL)


def _record(d: _Definition, aliases: dict[str, str], named: dict[str, RType]) -> RType | None:
    """A parameterless record read as an inductive type of one constructor whose arguments are its fields.

    ``Record point := mk_point { x : Z; y : Z }.`` is ``mk_point x y`` (``Build_point`` when the
    constructor is not named); a Python tuple of the fields' values is its value.
    """
    match = _RECORD_BODY.match(d.body)
    if d.binders or match is None:
        return None
    ctor, fields = match.groups()
    types = []
    for field_text in _top_level_split(fields, ";"):
        name, colon, type_text = field_text.strip().partition(":")
        if not field_text.strip():
            continue
        if not colon or _WORD.fullmatch(name.strip()) is None or type_text.startswith("="):
            return None
        types.append(type_text.strip())
    args = _constructor_args(d.name, types, aliases, named)
    if not args:
        return None
    constructor = Ctor(f"{SPEC_MODULE}.{ctor or 'Build_' + d.name}", args)
    return RType("ind", name=f"{SPEC_MODULE}.{d.name}", ctors=(constructor,))


def _used_by_others(definitions: list[_Definition]) -> set[str]:
    """Names of definitions that another definition's binders or body mention (helpers)."""
    used: set[str] = set()
    for d in definitions:
        words = set(_WORD.findall(d.body + " " + " ".join(t for _, t in d.binders))) - {d.name}
        used |= words
    return used


def _normalise(text: str, aliases: dict[str, str]) -> str:
    """Type text with qualified atoms shortened and abbreviations expanded."""
    text = _QUALIFIED.sub(lambda m: m.group(1) if m.group(1) in _SHORTENED else m.group(0), text)
    return _WORD.sub(
        lambda m: f"({_normalise(aliases[m.group(0)], aliases)})" if m.group(0) in aliases else m.group(0), text
    )


def _try_type(text: str, aliases: dict[str, str], named: dict[str, RType]) -> RType | None:
    try:
        return parse_type(_normalise(text, aliases), named)
    except TypeSyntaxError:
        return None
