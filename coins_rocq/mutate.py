"""Type-aware mutation of a true output into plausible wrong outputs.

Mutants by type: numbers off by one either way, negated, zero, doubled, off by ten;
booleans negated; characters changed; strings (and ``list ascii``) emptied, case-swapped, first or last
character dropped, reversed, a character appended; lists emptied, first or last element dropped, first
two swapped, reversed, first element duplicated or mutated, an element appended;
options swapped between ``None`` and ``Some``; tuples mutated one component at a time; a value of
a ``sum`` or an inductive first mutated within its constructor once, then moved to each other
constructor (its arguments simple values), then mutated within its constructor further; a
``pyvalue`` first becomes ``None`` (``None`` becomes ``1`` or ``""``), then is mutated as its own
Python type, never into another type's equal value (``2.0`` for ``2``, which Python's ``==`` accepts).
Mutants are distinct, differ from the original (compared as rendered terms), and come
in a fixed order, so the same output always gives the same mutants.
"""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import Any

from coins_rocq.render import render
from coins_rocq.rtypes import RType, pyvalue_scalar
from coins_rocq.values import Constructed, coerce_value

DEFAULT_MUTANTS = 5


def mutants(value: Any, rtype: RType, limit: int = DEFAULT_MUTANTS, mapping: bool = False) -> list[tuple[Any, str]]:
    """Up to ``limit`` wrong outputs as ``(value, how)`` pairs, distinct from ``value``.

    With ``mapping`` (a dict output given as a list of pairs), a mutant must be another
    mapping: its keys distinct and its pairs not those of ``value`` in another order.
    """
    original = render(value, rtype)
    seen = {original}
    out: list[tuple[Any, str]] = []
    for candidate, how in _candidates(value, rtype):
        if mapping and not _another_mapping(candidate, value):
            continue
        try:
            term = render(candidate, rtype)
        except ValueError:
            continue
        if term in seen:
            continue
        seen.add(term)
        out.append((candidate, how))
        if len(out) >= limit:
            break
    return out


def _another_mapping(candidate: Any, value: Any) -> bool:
    """True when ``candidate`` (a list of pairs) has distinct keys and maps them otherwise than ``value``."""
    try:
        keys = [key for key, _ in candidate]
        return len(set(keys)) == len(keys) and dict(candidate) != dict(value)
    except (TypeError, ValueError):
        return False


def default_value(rtype: RType) -> Any:
    """A simple inhabitant of ``rtype`` (used to grow empty lists and ``None``)."""
    kind = rtype.kind
    if kind in ("Z", "nat"):
        return 1
    if kind in ("Q", "R"):
        return 1.0
    if kind == "pyvalue":
        return 1
    if kind == "bool":
        return True
    if kind in ("string", "ascii"):
        return "a"
    if kind == "list":
        return [default_value(rtype.args[0])]
    if kind == "option":
        return default_value(rtype.args[0])
    if kind in ("sum", "ind"):
        return Constructed(0, tuple(default_value(t) for t in rtype.constructors()[0].args))
    return tuple(default_value(t) for t in rtype.args)


def _candidates(value: Any, rtype: RType) -> Iterator[tuple[Any, str]]:
    kind = rtype.kind
    if kind in ("Z", "nat"):
        yield from _numbers(value, lambda v: v, nat=kind == "nat")
    elif kind in ("Q", "R"):
        yield from _numbers(Fraction(value), float, nat=False)
        yield float(Fraction(value) + Fraction(1, 2)), "plus one half"
    elif kind == "bool":
        yield (not value), "negated"
    elif kind == "string":
        yield from _strings(value)
    elif kind == "ascii":
        yield from _chars(value)
    elif kind == "list" and rtype.args[0].kind == "ascii":
        for text, how in _strings("".join(value)):
            yield list(text), how
    elif kind == "list":
        yield from _lists(value, rtype.args[0])
    elif kind == "option":
        yield from _options(value, rtype.args[0])
    elif kind == "pyvalue":
        yield from _python_values(value)
    elif kind in ("sum", "ind"):
        yield from _constructed(coerce_value(value, rtype), rtype)
    else:
        yield from _tuples(tuple(value), rtype.args)


def _numbers(value: Any, cast: Any, nat: bool) -> Iterator[tuple[Any, str]]:
    yield cast(value + 1), "off by one (+1)"
    if not nat or value > 0:
        yield cast(value - 1), "off by one (-1)"
    if not nat:
        yield cast(-value), "negated"
    yield cast(value * 0), "zero"
    yield cast(value * 2), "doubled"
    yield cast(value + 10), "off by ten (+10)"
    if not nat or value >= 10:
        yield cast(value - 10), "off by ten (-10)"
    yield cast(value + 2), "off by two (+2)"
    yield cast(value + 3), "off by three (+3)"


def _strings(value: str) -> Iterator[tuple[str, str]]:
    yield "", "empty"
    yield value.swapcase(), "wrong case"
    yield value[1:], "first character dropped"
    yield value[:-1], "last character dropped"
    yield value[::-1], "reversed"
    yield value + "a", "character appended"
    if len(value) >= 2:
        yield value[1] + value[0] + value[2:], "first two characters swapped"
    yield "a" + value, "character prepended"
    yield value + value[-1:] + "z", "characters appended"


def _chars(value: str) -> Iterator[tuple[str, str]]:
    yield (value.swapcase() if value.swapcase() != value else chr((ord(value) + 1) % 128)), "wrong case or next"
    yield chr((ord(value) + 1) % 128), "next character"
    yield " ", "space"
    yield "a", "the letter a"


def _lists(value: list[Any], elem: RType) -> Iterator[tuple[list[Any], str]]:
    yield [], "empty"
    yield value[1:], "first element dropped"
    yield value[:-1], "last element dropped"
    if len(value) >= 2:
        yield [value[1], value[0], *value[2:]], "first two elements swapped"
    yield value[::-1], "reversed"
    if value:
        yield [value[0], *value], "first element duplicated"
        for mutant, how in _candidates(value[0], elem):
            yield [mutant, *value[1:]], f"first element {how}"
            break
        for mutant, how in _candidates(value[-1], elem):
            yield [*value[:-1], mutant], f"last element {how}"
            break
    yield [*value, value[-1] if value else default_value(elem)], "element appended"
    yield [default_value(elem), *value], "element prepended"
    yield [*value, default_value(elem), default_value(elem)], "two elements appended"
    yield value + value, "list repeated"


def _options(value: Any, elem: RType) -> Iterator[tuple[Any, str]]:
    if value is None:
        yield default_value(elem), "Some instead of None"
        for mutant, how in _candidates(default_value(elem), elem):
            yield mutant, f"Some instead of None ({how})"
        return
    yield None, "None instead of Some"
    for mutant, how in _candidates(value, elem):
        yield mutant, f"inner value {how}"


def _constructed(value: Constructed, rtype: RType) -> Iterator[tuple[Constructed, str]]:
    """Mutants of a constructor value: one within its constructor, then each other constructor, then the rest."""
    ctors = rtype.constructors()
    types = ctors[value.ctor].args
    inner = (
        _candidates(value.args[0], types[0]) if len(types) == 1 else (_tuples(value.args, types) if types else iter(()))
    )
    first = next(inner, None)
    if first is not None:
        yield Constructed(value.ctor, (first[0],) if len(types) == 1 else first[0]), f"argument {first[1]}"
    for index, ctor in enumerate(ctors):
        if index != value.ctor:
            name = ctor.name.split()[0].rsplit(".", 1)[-1]
            yield Constructed(index, tuple(default_value(t) for t in ctor.args)), f"constructor {name} instead"
    for mutant, how in inner:
        yield Constructed(value.ctor, (mutant,) if len(types) == 1 else mutant), f"argument {how}"


def _python_values(value: Any) -> Iterator[tuple[Any, str]]:
    """Mutants of a Python value: ``None`` first, then those of its own type."""
    if value is None:
        yield 1, "1 instead of None"
        yield "", "empty string instead of None"
        return
    yield None, "None instead of the value"
    scalar = pyvalue_scalar(value)
    if scalar is not None:
        yield from _candidates(value, scalar[1])
    elif isinstance(value, dict):
        items = list(value.items())
        yield {}, "empty"
        yield dict(items[1:]), "first item dropped"
        yield {**value, "": None}, "item added"
    else:
        for items, how in _lists(list(value), RType("pyvalue")):
            yield (items if isinstance(value, list) else tuple(items)), how


def _tuples(value: tuple[Any, ...], types: tuple[RType, ...]) -> Iterator[tuple[tuple[Any, ...], str]]:
    streams = [_candidates(item, t) for item, t in zip(value, types, strict=False)]
    active = True
    while active:
        active = False
        for i, stream in enumerate(streams):
            nxt = next(stream, None)
            if nxt is None:
                continue
            active = True
            mutant, how = nxt
            yield (*value[:i], mutant, *value[i + 1 :]), f"component {i + 1} {how}"
    if len(types) == 2 and types[0] == types[1]:
        yield (value[1], value[0]), "components swapped"
