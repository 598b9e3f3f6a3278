"""Render Python values as Rocq terms of a given type.

Terms avoid every notation a spec could define: numbers carry their scope key
(``3%Z``, ``(-3)%Z``, ``7%nat``), lists are ``(x :: ... :: @nil T)``, pairs are
``(@pair A B a b)``, options ``(@Some T v)``/``(@None T)``. Printable ASCII strings are
``"..."%string`` with ``""`` for a quote; any other character is spelled out byte by
byte (UTF-8) with ``Ascii.ascii_of_nat`` (so is any string holding ``</``, which
would confuse the prompt markers of the ``coqtop`` protocol). Floats become exact rationals: ``Qmake n d``
for ``Q`` and ``Rdiv (IZR n) (IZR d)`` for ``R``.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from coins_rocq.rtypes import RType, coerce

MAX_NAT = 5000


class RenderError(ValueError):
    """A value cannot be written as a Rocq term of the requested type."""


def render(value: Any, rtype: RType) -> str:
    """``value`` as a Rocq term of type ``rtype``; raises ``RenderError`` or ``ValueTypeError``."""
    return _render(coerce(value, rtype), rtype)


def _render(value: Any, rtype: RType) -> str:
    kind = rtype.kind
    if kind == "Z":
        return f"{value}%Z" if value >= 0 else f"({value})%Z"
    if kind == "nat":
        if value > MAX_NAT:
            raise RenderError(f"nat {value} is too large for a unary term (limit {MAX_NAT})")
        return f"{value}%nat"
    if kind == "bool":
        return "true" if value else "false"
    if kind == "string":
        return render_string(value)
    if kind == "Q":
        frac = Fraction(value)
        return f"(Coq.QArith.QArith_base.Qmake {_z(frac.numerator)} {frac.denominator}%positive)"
    if kind == "R":
        frac = Fraction(value)
        num = f"(Coq.Reals.Rdefinitions.IZR {_z(frac.numerator)})"
        if frac.denominator == 1:
            return num
        return f"(Coq.Reals.Rdefinitions.Rdiv {num} (Coq.Reals.Rdefinitions.IZR {_z(frac.denominator)}))"
    if kind == "list":
        elem = rtype.args[0]
        parts = [_render(item, elem) for item in value]
        return "(" + "".join(f"{p} :: " for p in parts) + f"@nil {elem.rocq()})"
    if kind == "option":
        elem = rtype.args[0]
        return f"(@None {elem.rocq()})" if value is None else f"(@Some {elem.rocq()} {_render(value, elem)})"
    return _render_product(list(value), list(rtype.args))


def _render_product(values: list[Any], types: list[RType]) -> str:
    """A left-nested pair: ``(a, b, c)`` is ``((a, b), c)`` as in Rocq's ``A * B * C``."""
    term, left = _render(values[0], types[0]), types[0]
    for value, rtype in zip(values[1:], types[1:]):
        term = f"(@pair {left.rocq()} {rtype.rocq()} {term} {_render(value, rtype)})"
        left = RType("prod", (left, rtype))
    return term


def _z(n: int) -> str:
    return f"{n}%Z" if n >= 0 else f"({n})%Z"


def render_string(text: str) -> str:
    """A Rocq ``string`` term for ``text`` (UTF-8 bytes beyond printable ASCII spelled out)."""
    data = text.encode("utf-8")
    if all(32 <= b < 127 for b in data) and "</" not in text:
        return '"' + text.replace('"', '""') + '"%string'
    term = '""%string'
    for byte in reversed(data):
        char = f"(Coq.Strings.Ascii.ascii_of_nat {byte}%nat)"
        term = f"(Coq.Strings.String.String {char} {term})"
    return term
