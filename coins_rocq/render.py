"""Render Python values as Rocq terms of a given type.

Terms avoid every notation a spec could define: numbers carry their scope key
(``3%Z``, ``(-3)%Z``, ``7%nat``; a natural above ``MAX_UNARY_NAT`` is
``Z.to_nat 5361%Z``, above ``MAX_COMPUTED_NAT`` ``CoinsBig.coins_big_nat 53361%Z``, never a
unary term), lists are ``(x :: ... :: @nil T)``, a
printable ``list ascii`` is ``list_ascii_of_string "..."``, an ``ascii`` is
``"a"%char`` or ``ascii_of_nat n``, pairs are
``(@pair A B a b)``, options ``(@Some T v)``/``(@None T)``. Printable ASCII strings are
``"..."%string`` with ``""`` for a quote; any other character is spelled out byte by
byte (UTF-8) with ``Ascii.ascii_of_nat`` (so is any string holding ``</``, which
would confuse the prompt markers of the ``coqtop`` protocol). Floats become the exact rational of
their shortest decimal form (``0.1`` is 1/10): ``Qmake n d`` for ``Q`` and
``Rdiv (IZR n) (IZR d)`` for ``R``. A ``pyvalue`` is its constructor applied to the value
rendered at its own type: ``PyNone``, ``(PyBool true)``, ``(PyInt 3%Z)``, ``(PyFloat q)``,
``(PyStr s)``, and ``PyList``/``PyTuple`` of a list of values, ``PyDict`` of a list of pairs.
A value of a ``sum`` or of the spec's own inductive is its constructor applied to its arguments
(``(@Coq.Init.Datatypes.inl A B a)``, ``(CoinsSpec.Binary s)``, a bare ``CoinsSpec.NoAnswer``).
"""

from __future__ import annotations

import re
from fractions import Fraction
from importlib import resources
from typing import Any

from coins_rocq.rtypes import RType, pyvalue_scalar
from coins_rocq.values import Constructed, Unknown, coerce_value


def _helpers_bounds(*names: str) -> tuple[int, ...]:
    """The integer bounds ``Definition <name> : Z := <n>.`` of the ladder's ``helpers.v``, in order."""
    text = resources.files("coins_rocq.ltac").joinpath("helpers.v").read_text(encoding="utf-8")
    bounds = []
    for name in names:
        found = re.search(rf"^Definition {name} : Z := (\d+)\.$", text, re.MULTILINE)
        if found is None:
            raise RuntimeError(f"coins_rocq/ltac/helpers.v defines no {name}")
        bounds.append(int(found.group(1)))
    return tuple(bounds)


MAX_UNARY_NAT, MAX_COMPUTED_NAT = _helpers_bounds("coins_unary_nat_max", "coins_computed_nat_max")
"""Above it, a natural is ``CoinsBig.coins_big_nat z`` (the prelude's ``Z.to_nat``, sealed so that no
tactic unfolds it): unary arithmetic and read-back that large overflow Rocq's stack. Both bounds are
read from ``helpers.v``, whose guards must agree with how cases are written."""


def render(value: Any, rtype: RType) -> str:
    """``value`` as a Rocq term of type ``rtype``; raises ``ValueTypeError`` when it does not fit."""
    return _render(coerce_value(value, rtype), rtype)


def _render(value: Any, rtype: RType) -> str:
    if isinstance(value, Unknown):
        return value.name
    kind = rtype.kind
    if kind == "Z":
        return f"{value}%Z" if value >= 0 else f"({value})%Z"
    if kind == "nat":
        if value <= MAX_UNARY_NAT:
            return f"{value}%nat"
        if value <= MAX_COMPUTED_NAT:
            return f"(Coq.ZArith.BinInt.Z.to_nat {value}%Z)"
        return f"(CoinsBig.coins_big_nat {value}%Z)"
    if kind == "ascii":
        return render_ascii(value)
    if kind == "bool":
        return "true" if value else "false"
    if kind == "string":
        return render_string(value)
    if kind == "Q":
        frac = exact_decimal(value)
        return f"(Coq.QArith.QArith_base.Qmake {_z(frac.numerator)} {frac.denominator}%positive)"
    if kind == "R":
        frac = exact_decimal(value)
        num = f"(Coq.Reals.Rdefinitions.IZR {_z(frac.numerator)})"
        if frac.denominator == 1:
            return num
        return f"(Coq.Reals.Rdefinitions.Rdiv {num} (Coq.Reals.Rdefinitions.IZR {_z(frac.denominator)}))"
    if kind == "pyvalue":
        return _render_python_value(value)
    if kind == "list":
        elem = rtype.args[0]
        if elem.kind == "ascii" and _printable("".join(value)):
            text = "".join(value).replace('"', '""')
            return f'(Coq.Strings.String.list_ascii_of_string "{text}"%string)'
        parts = [_render(item, elem) for item in value]
        return "(" + "".join(f"{p} :: " for p in parts) + f"@nil {elem.rocq()})"
    if kind == "option":
        elem = rtype.args[0]
        return f"(@None {elem.rocq()})" if value is None else f"(@Some {elem.rocq()} {_render(value, elem)})"
    if isinstance(value, Constructed):
        ctor = rtype.constructors()[value.ctor]
        args = [_render(v, t) for v, t in zip(value.args, ctor.args, strict=True)]
        return f"({' '.join([ctor.name, *args])})" if args else ctor.name
    return _render_product(list(value), list(rtype.args))


def _render_product(values: list[Any], types: list[RType]) -> str:
    """A left-nested pair: ``(a, b, c)`` is ``((a, b), c)`` as in Rocq's ``A * B * C``."""
    term, left = _render(values[0], types[0]), types[0]
    for value, rtype in zip(values[1:], types[1:], strict=False):
        term = f"(@pair {left.rocq()} {rtype.rocq()} {term} {_render(value, rtype)})"
        left = RType("prod", (left, rtype))
    return term


PYVALUE = RType("pyvalue")
PYVALUE_ITEM = RType("prod", (PYVALUE, PYVALUE))


def _render_python_value(value: Any) -> str:
    """A ``pyvalue`` term: the constructor of the value's Python type applied to its content."""
    if value is None:
        return "PyNone"
    scalar = pyvalue_scalar(value)
    if scalar is not None:
        constructor, rtype = scalar
        return f"({constructor} {_render(value, rtype)})"
    if isinstance(value, dict):
        return f"(PyDict {_render(list(value.items()), RType('list', (PYVALUE_ITEM,)))})"
    constructor = "PyList" if isinstance(value, list) else "PyTuple"
    return f"({constructor} {_render(list(value), RType('list', (PYVALUE,)))})"


def exact_decimal(value: int | float) -> Fraction:
    """The rational a number's shortest decimal form denotes (``0.1`` -> 1/10, not the binary float)."""
    return Fraction(value) if isinstance(value, int) else Fraction(repr(value))


def _printable(text: str) -> bool:
    """True when ``text`` is printable ASCII safe to put in a string literal."""
    return all(32 <= ord(ch) < 127 for ch in text) and "</" not in text


def render_ascii(char: str) -> str:
    """A Rocq ``ascii`` term for a one-byte character."""
    if char.isascii() and char.isalnum():
        return f'"{char}"%char'
    return f"(Coq.Strings.Ascii.ascii_of_nat {ord(char)}%nat)"


def _z(n: int) -> str:
    return f"{n}%Z" if n >= 0 else f"({n})%Z"


def render_string(text: str) -> str:
    """A Rocq ``string`` term for ``text`` (UTF-8 bytes beyond printable ASCII spelled out)."""
    data = text.encode("utf-8")
    if _printable(text):
        return '"' + text.replace('"', '""') + '"%string'
    term = '""%string'
    for byte in reversed(data):
        char = f"(Coq.Strings.Ascii.ascii_of_nat {byte}%nat)"
        term = f"(Coq.Strings.String.String {char} {term})"
    return term
