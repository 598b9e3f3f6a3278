"""Align a definition's binders with a Python entry point's arguments and output.

A spec's binders need not be the inputs in order followed by one output binder. With ``a``
arguments and ``n`` binders, ``n - a`` binders take the output: one takes it whole, several
take the components of a tuple output in turn, none makes the spec a predicate on the inputs
whose truth is the boolean output. Every assignment of those roles to binders is scored on the
test cases: how many cases' values all fit the binders' types (``coerce``; a value outside a
type's domain, such as a negative ``nat``, still fits), then how many binder names agree with
the Python parameter names (``sub`` for ``substring``; an output role on a binder named like
``output``/``result``), then how close the roles keep the binder order (fewest inversions). The
best assignment wins; two that tie on all three are refused as ambiguous, never guessed.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from coins_rocq.rtypes import OUTPUT, Layout, PreconditionViolation, RType, ValueTypeError
from coins_rocq.values import coerce_value

MAX_BINDERS = 8
"""Definitions with more binders are not aligned (the search tries every order of the roles)."""

_OUTPUT_NAME = re.compile(r"(out|output|outputs|res|result|results|ret|return|ans|answer|r)_?\d*'*")


class AlignmentError(ValueError):
    """The binders fit the entry point in no way, or in several equally good ways."""


@dataclass(frozen=True)
class Alignment:
    """A chosen layout, the types of the inputs and the output it gives, and how many cases fit it."""

    layout: Layout
    input_types: tuple[RType, ...]
    output_type: RType
    fit: int


def align(
    binders: Sequence[tuple[str, RType]],
    param_names: Sequence[str],
    outputs: Sequence[Any] | None,
    inputs: Sequence[Sequence[Any]] = (),
) -> Alignment:
    """The best way for ``binders`` to take ``len(param_names)`` inputs and the output.

    ``inputs``/``outputs``: the test cases' values (the evidence of types); ``outputs`` None
    aligns the inputs alone (a precondition). Raises ``AlignmentError``.
    """
    arity, n = len(param_names), len(binders)
    if n > MAX_BINDERS:
        raise AlignmentError(f"{n} binders: at most {MAX_BINDERS} are aligned")
    parts = n - arity
    if parts < 0 or (outputs is None and parts != 0):
        wanted = f"{arity}" if outputs is None else f"at least {arity}"
        raise AlignmentError(f"{n} binders for {wanted} (the entry point has {arity} arguments)")
    roles: list[tuple[str, int]] = [("input", i) for i in range(arity)]
    roles += [("output", OUTPUT)] if parts == 1 else [("output", j) for j in range(parts)]
    cases = len(inputs)
    pairs = [(r, b) for r in range(len(roles)) for b in range(n)]
    fits = {(r, b): _fits(roles[r], binders[b][1], inputs, outputs, parts) for r, b in pairs}
    everything = (1 << cases) - 1
    if parts == 0 and outputs is not None:
        everything &= _mask(lambda c: _fits_value(outputs[c], RType("bool")), cases)
    agree = {(r, b): _name_score(roles[r], binders[b][0], param_names) for r, b in pairs}
    scored = []
    for order in itertools.permutations(range(n)):
        mask = everything
        for b, r in enumerate(order):
            mask &= fits[r, b]
        names = sum(agree[r, b] for b, r in enumerate(order))
        inversions = sum(1 for x, y in itertools.combinations(order, 2) if x > y)
        scored.append(((bin(mask).count("1"), names, -inversions), order))
    if not scored:
        raise AlignmentError("no binders to align")
    scored.sort(key=lambda item: item[0], reverse=True)
    best, order = scored[0]
    if cases and best[0] == 0:
        raise AlignmentError("no test case's values fit the binders' types in any order")
    ties = [o for score, o in scored[1:] if score == best]
    if ties:
        names_ = tuple(name for name, _ in binders)
        shown = "; ".join(Layout(names_, tuple(roles[r] for r in o)).describe(param_names) for o in (order, *ties[:2]))
        raise AlignmentError(f"the binders fit the entry point equally well in {len(ties) + 1} ways ({shown})")
    layout = Layout(tuple(name for name, _ in binders), tuple(roles[r] for r in order))
    binder_of = {roles[r]: b for b, r in enumerate(order)}
    input_types = tuple(binders[binder_of["input", i]][1] for i in range(arity))
    if parts == 1:
        output_type = binders[binder_of["output", OUTPUT]][1]
    elif parts == 0:
        output_type = RType("bool")
    else:
        output_type = RType("prod", tuple(binders[binder_of["output", j]][1] for j in range(parts)))
    return Alignment(layout, input_types, output_type, best[0])


def _fits(
    role: tuple[str, int], rtype: RType, inputs: Sequence[Sequence[Any]], outputs: Sequence[Any] | None, parts: int
) -> int:
    """The bitmask of the cases whose value for ``role`` fits ``rtype``."""
    kind, index = role
    if kind == "input":
        return _mask(lambda c: index < len(inputs[c]) and _fits_value(inputs[c][index], rtype), len(inputs))
    assert outputs is not None
    if index == OUTPUT:
        return _mask(lambda c: _fits_value(outputs[c], rtype), len(inputs))
    return _mask(lambda c: _component_fits(outputs[c], index, parts, rtype), len(inputs))


def _component_fits(value: Any, index: int, parts: int, rtype: RType) -> bool:
    return isinstance(value, (list, tuple)) and len(value) == parts and _fits_value(value[index], rtype)


def _mask(test: Any, count: int) -> int:
    return sum(1 << c for c in range(count) if test(c))


def _fits_value(value: Any, rtype: RType) -> bool:
    try:
        coerce_value(value, rtype)
    except PreconditionViolation:
        return True
    except ValueTypeError:
        return False
    return True


def _name_score(role: tuple[str, int], binder: str, param_names: Sequence[str]) -> int:
    """+1 where a binder's name agrees with the value it takes, -1 for an input on an output-named binder."""
    output_named = _OUTPUT_NAME.fullmatch(binder.lower()) is not None
    kind, index = role
    if kind == "output":
        return 1 if output_named else 0
    if _same_name(binder, param_names[index]):
        return 1
    return -1 if output_named else 0


def _same_name(binder: str, param: str) -> bool:
    """``sub`` and ``substring``, ``lst`` and ``lst``: equal, or one a prefix (3 letters or more) of the other."""
    a, b = binder.lower().strip("_'"), param.lower().strip("_'")
    return a == b or (min(len(a), len(b)) >= 3 and (a.startswith(b) or b.startswith(a)))
