"""Python values checked against Rocq types (``coerce_value``), constructors of ``sum`` and inductive types included.

A value of a ``sum`` or of a spec's own inductive type takes the first constructor whose
arguments it fits (one argument: the value itself; several: a tuple of them), as a
``Constructed`` value that renders as that constructor applied to them. A nullary constructor
takes ``None``; it also takes a scalar that fits no constructor with arguments when it is the
type's only nullary constructor (``-1`` for ``Inductive result := NoAnswer | Binary (s : string)``).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from coins_rocq.rtypes import PreconditionViolation, RType, ValueTypeError


@dataclass(frozen=True)
class Constructed:
    """A value of a constructor type: the index of its constructor and that constructor's arguments."""

    ctor: int
    args: tuple[Any, ...]


@dataclass(frozen=True)
class Unknown:
    """A bound variable in place of a ``Q``/``R`` value (``coins_rocq.floats.with_unknowns``): rendered as its name."""

    name: str


def coerce_value(value: Any, rtype: RType, where: str = "value") -> Any:
    """``value`` checked against ``rtype`` (JSON lists become tuples for products); raises ``ValueTypeError``."""
    kind = rtype.kind
    if kind in ("Z", "nat"):
        return _coerce_int(value, kind, where)
    if kind == "bool":
        if not isinstance(value, bool):
            raise ValueTypeError(f"{where}: expected bool, got {type(value).__name__}")
        return value
    if kind == "string":
        if not isinstance(value, str):
            raise ValueTypeError(f"{where}: expected str, got {type(value).__name__}")
        return value
    if kind == "ascii":
        if not isinstance(value, str) or len(value) != 1 or ord(value) > 255:
            raise ValueTypeError(f"{where}: expected one byte-sized character for ascii, got {value!r:.40}")
        return value
    if kind in ("Q", "R"):
        if isinstance(value, Unknown):
            return value
        if isinstance(value, str):
            value = _decimal_numeral(value, kind, where)
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ValueTypeError(f"{where}: expected float for {kind}, got {type(value).__name__}")
        if isinstance(value, float) and not math.isfinite(value):
            raise ValueTypeError(f"{where}: {value} has no {kind} value")
        return value
    if kind == "pyvalue":
        return coerce_python_value(value, where)
    if kind == "list":
        return _coerce_list(value, rtype.args[0], where)
    if kind == "option":
        return None if value is None else coerce_value(value, rtype.args[0], where)
    if kind in ("sum", "ind"):
        return coerce_constructed(value, rtype, where)
    if not isinstance(value, (list, tuple)) or len(value) != len(rtype.args):
        raise ValueTypeError(f"{where}: expected a tuple of {len(rtype.args)}, got {value!r:.60}")
    return tuple(
        coerce_value(item, t, f"{where}[{i}]") for i, (item, t) in enumerate(zip(value, rtype.args, strict=True))
    )


MAX_PYVALUE_DEPTH = 32


def coerce_python_value(value: Any, where: str, depth: int = 0) -> Any:
    """``value`` checked to be a ``pyvalue`` (containers checked item by item); raises ``ValueTypeError``."""
    if depth > MAX_PYVALUE_DEPTH:
        raise ValueTypeError(f"{where}: nested deeper than {MAX_PYVALUE_DEPTH} containers")
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueTypeError(f"{where}: {value} has no exact rational value")
        return value
    if isinstance(value, (list, tuple)):
        items = [coerce_python_value(item, f"{where}[{i}]", depth + 1) for i, item in enumerate(value)]
        return items if isinstance(value, list) else tuple(items)
    if isinstance(value, dict):
        return {
            coerce_python_value(key, f"{where} key", depth + 1): coerce_python_value(
                item, f"{where}[{key!r:.20}]", depth + 1
            )
            for key, item in value.items()
        }
    raise ValueTypeError(
        f"{where}: a {type(value).__name__} is not a pyvalue (None, bool, int, float, str, list, tuple, dict)"
    )


_NUMERAL = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)")


def _decimal_numeral(text: str, kind: str, where: str) -> float:
    """A decimal numeral string (HumanEval/99 passes its number as text) as the float of that decimal.

    Refused when it is not a plain numeral or has more digits than a float keeps exactly.
    """
    if not _NUMERAL.fullmatch(text.strip()):
        raise ValueTypeError(f"{where}: expected float for {kind}, got str {text!r:.40}")
    number = float(text)
    if Fraction(repr(number)) != Fraction(text.strip()):
        raise ValueTypeError(f"{where}: numeral {text!r:.40} has more digits than {kind} is given here")
    return number


def _coerce_int(value: Any, kind: str, where: str) -> int:
    """An ``int`` for ``Z``/``nat`` (integral floats accepted); negative for ``nat`` is a precondition violation."""
    if isinstance(value, float) and math.isfinite(value) and value == int(value):
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueTypeError(f"{where}: expected int for {kind}, got {type(value).__name__} {value!r:.40}")
    if kind == "nat" and value < 0:
        raise PreconditionViolation(f"{where}: negative int {value} for nat")
    return value


def _coerce_list(value: Any, elem: RType, where: str) -> list[Any]:
    """A list for ``list elem``: from a list or tuple, a ``str`` for ``list ascii``, a dict for a list of pairs."""
    if isinstance(value, str) and elem.kind == "ascii":
        return list(value.encode("utf-8").decode("latin-1"))
    if isinstance(value, dict) and elem.kind == "prod" and len(elem.args) == 2:
        value = list(value.items())
    if not isinstance(value, (list, tuple)):
        raise ValueTypeError(f"{where}: expected list, got {type(value).__name__}")
    return [coerce_value(item, elem, f"{where}[{i}]") for i, item in enumerate(value)]


def coerce_constructed(value: Any, rtype: RType, where: str) -> Constructed:
    """``value`` as a ``Constructed`` of ``rtype`` (a ``sum`` or an inductive); raises ``ValueTypeError``."""
    ctors = rtype.constructors()
    if isinstance(value, Constructed) and 0 <= value.ctor < len(ctors):
        types = ctors[value.ctor].args
        if len(value.args) != len(types):
            raise ValueTypeError(f"{where}: {len(value.args)} arguments for a constructor of {len(types)}")
        args = tuple(
            coerce_value(a, t, f"{where} argument {i}") for i, (a, t) in enumerate(zip(value.args, types, strict=True))
        )
        return Constructed(value.ctor, args)
    violation: PreconditionViolation | None = None
    for index, ctor in enumerate(ctors):
        if not ctor.args:
            continue
        try:
            items = (value,) if len(ctor.args) == 1 else _tuple_of(value, len(ctor.args), where)
            return Constructed(index, tuple(coerce_value(v, t, where) for v, t in zip(items, ctor.args, strict=True)))
        except PreconditionViolation as exc:
            violation = violation or exc
        except ValueTypeError:
            continue
    nullary = [i for i, ctor in enumerate(ctors) if not ctor.args]
    scalar = isinstance(value, (bool, int, float, str)) and len(nullary) == 1
    if nullary and (value is None or scalar):
        return Constructed(nullary[0], ())
    if violation is not None:
        raise violation
    raise ValueTypeError(f"{where}: {value!r:.40} fits no constructor of {rtype}")


def _tuple_of(value: Any, size: int, where: str) -> tuple[Any, ...]:
    if not isinstance(value, (list, tuple)) or len(value) != size:
        raise ValueTypeError(f"{where}: expected a tuple of {size}, got {value!r:.40}")
    return tuple(value)
