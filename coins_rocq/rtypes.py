"""Rocq types of spec arguments and their Python counterparts.

Grammar: ``type := app ('*' app)*``; ``app := ('list' | 'option') app | atom``;
``atom := Z | nat | bool | string | ascii | Q | R | pyvalue | '(' type ')'``. Python ``int`` maps
to ``Z`` (or ``nat`` where declared and non-negative; an integral ``float`` is taken as
its ``int``), ``bool`` to ``bool``, ``str`` to ``string`` and to ``list ascii`` (its
UTF-8 bytes), a one-character ``str`` to ``ascii``, ``list``/``tuple`` to ``list``,
``tuple``/``list`` to a left-nested product, a ``dict`` to a list of pairs (in order),
``None``/value to ``option`` and ``int``/``float`` to ``Q`` or ``R``. ``pyvalue`` (the
prelude's sum type of Python values, ``PYVALUE_DEFINITION``) takes any ``None``, ``bool``,
``int``, finite ``float`` or ``str``, and ``list``, ``tuple`` and ``dict`` of those, keeping
the Python type (``3`` and ``3.0`` differ), for functions whose arguments are dynamically typed.

A value that does not fit raises ``ValueTypeError``; a negative ``int`` for ``nat``
raises its subclass ``PreconditionViolation`` (the case lies outside the type's domain).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

ATOMS = ("Z", "nat", "bool", "string", "ascii", "Q", "R", "pyvalue")
QUALIFIED = {
    "Q": "Coq.QArith.QArith_base.Q",
    "R": "Coq.Reals.Rdefinitions.R",
    "string": "Coq.Strings.String.string",
    "ascii": "Coq.Strings.Ascii.ascii",
}
PYTHON_OF_ATOM = {
    "Z": "int",
    "nat": "int",
    "bool": "bool",
    "string": "str",
    "ascii": "str",
    "Q": "float",
    "R": "float",
    "pyvalue": "object",
}
PYVALUE_DEFINITION = (
    "Inductive pyvalue : Type := PyNone : pyvalue | PyBool : bool -> pyvalue | PyInt : Z -> pyvalue"
    " | PyFloat : Coq.QArith.QArith_base.Q -> pyvalue | PyStr : string -> pyvalue"
    " | PyList : list pyvalue -> pyvalue | PyTuple : list pyvalue -> pyvalue"
    " | PyDict : list (pyvalue * pyvalue) -> pyvalue."
)
"""The Rocq type of a dynamically typed Python value, defined by the prelude when a signature uses it
(a float is the exact rational of its shortest decimal form, a dict its items in order)."""


class TypeSyntaxError(ValueError):
    """A type or signature string does not follow the grammar."""


class ValueTypeError(ValueError):
    """A Python value does not fit a Rocq type."""


class PreconditionViolation(ValueTypeError):
    """A value lies outside the Rocq type's domain (a negative int for ``nat``)."""


@dataclass(frozen=True)
class RType:
    """A Rocq type: an atom, ``list``/``option`` of one argument, or a product of two or more."""

    kind: str
    args: tuple[RType, ...] = ()

    def rocq(self) -> str:
        """The type as Rocq source with qualified atoms, parenthesised where needed."""
        if self.kind in ATOMS:
            return QUALIFIED.get(self.kind, self.kind)
        if self.kind in ("list", "option"):
            return f"({self.kind} {self.args[0].rocq()})"
        return "(" + " * ".join(a.rocq() for a in self.args) + ")%type"

    def python(self) -> str:
        """The Python annotation this type corresponds to."""
        if self.kind in ATOMS:
            return PYTHON_OF_ATOM[self.kind]
        if self.kind == "list":
            return f"list[{self.args[0].python()}]"
        if self.kind == "option":
            return f"Optional[{self.args[0].python()}]"
        return "tuple[" + ", ".join(a.python() for a in self.args) + "]"

    def kinds(self) -> set[str]:
        """Every kind this type is built from, itself included (``list (Z * string)``: list, prod, Z, string)."""
        return {self.kind}.union(*(arg.kinds() for arg in self.args))

    def __str__(self) -> str:
        if self.kind in ATOMS:
            return self.kind
        if self.kind in ("list", "option"):
            arg = self.args[0]
            return f"{self.kind} {arg}" if arg.kind in ATOMS else f"{self.kind} ({arg})"
        return " * ".join(str(a) if a.kind in ATOMS or a.kind in ("list", "option") else f"({a})" for a in self.args)


PYVALUE_SCALARS: tuple[tuple[type, str, RType], ...] = (
    (bool, "PyBool", RType("bool")),
    (int, "PyInt", RType("Z")),
    (float, "PyFloat", RType("Q")),
    (str, "PyStr", RType("string")),
)
"""The ``pyvalue`` constructor of each Python scalar type and the Rocq type of its content
(``bool`` before ``int``, since a Python bool is an int); ``PYVALUE_DEFINITION`` has them."""


def pyvalue_scalar(value: Any) -> tuple[str, RType] | None:
    """The constructor and content type of a scalar Python value inside ``pyvalue``; None for None and containers."""
    for python_type, constructor, rtype in PYVALUE_SCALARS:
        if isinstance(value, python_type):
            return constructor, rtype
    return None


_TOKEN = re.compile(r"\s*([A-Za-z]+|\*|\(|\))")


def parse_type(text: str) -> RType:
    """Parse a Rocq type string such as ``list (Z * string)``."""
    tokens = _tokenize(text)
    rtype, pos = _parse_product(tokens, 0, text)
    if pos != len(tokens):
        raise TypeSyntaxError(f"unexpected {tokens[pos]!r} in type {text!r}")
    return rtype


def _tokenize(text: str) -> list[str]:
    tokens: list[str] = []
    pos = 0
    stripped = text.rstrip()
    while pos < len(stripped):
        match = _TOKEN.match(stripped, pos)
        if not match:
            raise TypeSyntaxError(f"bad character in type {text!r} at {pos}")
        tokens.append(match.group(1))
        pos = match.end()
    if not tokens:
        raise TypeSyntaxError("empty type")
    return tokens


def _parse_product(tokens: list[str], pos: int, text: str) -> tuple[RType, int]:
    items = []
    item, pos = _parse_app(tokens, pos, text)
    items.append(item)
    while pos < len(tokens) and tokens[pos] == "*":
        item, pos = _parse_app(tokens, pos + 1, text)
        items.append(item)
    if len(items) == 1:
        return items[0], pos
    return RType("prod", tuple(items)), pos


def _parse_app(tokens: list[str], pos: int, text: str) -> tuple[RType, int]:
    if pos >= len(tokens):
        raise TypeSyntaxError(f"type {text!r} ends too early")
    token = tokens[pos]
    if token in ("list", "option"):
        arg, pos = _parse_app(tokens, pos + 1, text)
        return RType(token, (arg,)), pos
    if token == "(":
        inner, pos = _parse_product(tokens, pos + 1, text)
        if pos >= len(tokens) or tokens[pos] != ")":
            raise TypeSyntaxError(f"unbalanced parentheses in type {text!r}")
        return inner, pos + 1
    if token in ATOMS:
        return RType(token), pos + 1
    raise TypeSyntaxError(f"unknown type {token!r} in {text!r} (supported: {', '.join(ATOMS)}, list, option, *)")


def coerce(value: Any, rtype: RType, where: str = "value") -> Any:
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
        return None if value is None else coerce(value, rtype.args[0], where)
    if not isinstance(value, (list, tuple)) or len(value) != len(rtype.args):
        raise ValueTypeError(f"{where}: expected a tuple of {len(rtype.args)}, got {value!r:.60}")
    return tuple(coerce(item, t, f"{where}[{i}]") for i, (item, t) in enumerate(zip(value, rtype.args, strict=True)))


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
    return [coerce(item, elem, f"{where}[{i}]") for i, item in enumerate(value)]


@dataclass(frozen=True)
class Param:
    """One named input of a signature."""

    name: str
    rtype: RType


@dataclass(frozen=True)
class Signature:
    """The entry point, its typed inputs and its output type, e.g. ``add (x : Z) (y : Z) : Z``."""

    name: str
    params: tuple[Param, ...]
    output: RType
    spec_ident: str | None = None
    pre_ident: str | None = None

    @property
    def spec_name(self) -> str:
        """The name the spec must define: ``<entry point>_spec`` unless the signature names another."""
        return self.spec_ident or f"{self.name}_spec"

    @property
    def pre_name(self) -> str:
        """The optional precondition's name: ``<entry point>_pre`` unless the signature names another."""
        return self.pre_ident or f"{self.name}_pre"

    def kinds(self) -> set[str]:
        """Every type kind the inputs and the output are built from."""
        return self.output.kinds().union(*(p.rtype.kinds() for p in self.params))

    def spec_type(self) -> str:
        """The Rocq type the spec must have: inputs, then the output, to ``Prop``."""
        return " -> ".join([p.rtype.rocq() for p in self.params] + [self.output.rocq(), "Prop"])

    def pre_type(self) -> str:
        """The Rocq type of the precondition: the inputs to ``Prop``."""
        return " -> ".join([p.rtype.rocq() for p in self.params] + ["Prop"])

    def __str__(self) -> str:
        params = " ".join(f"({p.name} : {p.rtype})" for p in self.params)
        return f"{self.name} {params} : {self.output}".replace("  ", " ")


_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_']*")


def parse_signature(text: str) -> Signature:
    """Parse ``name (x : T) (y : U) : V``."""
    if not isinstance(text, str):
        raise TypeSyntaxError("signature is not text")
    text = text.strip()
    match = _NAME.match(text)
    if not match:
        raise TypeSyntaxError(f"signature must start with the entry point's name, got {text!r:.80}")
    name, pos = match.group(0), match.end()
    params: list[Param] = []
    while True:
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos >= len(text) or text[pos] != "(":
            break
        end = _closing(text, pos)
        inner = text[pos + 1 : end]
        pname, _, ptype = inner.partition(":")
        if not _NAME.fullmatch(pname.strip()) or not ptype.strip():
            raise TypeSyntaxError(f"bad parameter {inner!r} in signature")
        params.append(Param(pname.strip(), parse_type(ptype)))
        pos = end + 1
    if pos >= len(text) or text[pos] != ":":
        raise TypeSyntaxError(f"signature must end with ': <output type>', got {text!r:.80}")
    return Signature(name, tuple(params), parse_type(text[pos + 1 :]))


def closing_paren(text: str, pos: int) -> int:
    """Index of the parenthesis closing the one at ``pos``, or -1 when it is never closed."""
    depth = 0
    for i in range(pos, len(text)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            return i
    return -1


def _closing(text: str, pos: int) -> int:
    """Index of the parenthesis closing the one at ``pos``; TypeSyntaxError when it is never closed."""
    end = closing_paren(text, pos)
    if end < 0:
        raise TypeSyntaxError(f"unbalanced parentheses in signature {text!r:.80}")
    return end
