"""Rocq types of spec arguments and their Python counterparts.

Grammar: ``type := prod ('+' prod)*``; ``prod := app ('*' app)*``; ``app := ('list' | 'option') app
| 'sum' app app | atom``; ``atom := Z | nat | bool | string | ascii | Q | R | pyvalue | NAME | '(' type ')'``,
where ``NAME`` is a type the spec defines itself (``Inductive result := ...``, given to ``parse_type``)
and ``A + B`` is ``sum A B``. A ``sum`` or a spec's own inductive is a type of constructors
(``coins_rocq.values``): a Python value takes the first constructor whose arguments it fits.

Values are checked against types by ``coins_rocq.values.coerce_value``: Python ``int`` maps
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

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

ATOMS = ("Z", "nat", "bool", "string", "ascii", "Q", "R", "pyvalue")
SPEC_MODULE = "CoinsSpec"
"""The module the spec is loaded in: obligations name the spec's own definitions ``CoinsSpec.<name>``."""
SUM_CONSTRUCTORS = ("Coq.Init.Datatypes.inl", "Coq.Init.Datatypes.inr")
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
class Ctor:
    """A constructor of a spec's own inductive type: its qualified Rocq name and its argument types."""

    name: str
    args: tuple[RType, ...]


@dataclass(frozen=True)
class RType:
    """A Rocq type: an atom, ``list``/``option`` of one argument, a product of two or more, ``sum``
    of two, or (kind ``ind``) a spec's own inductive type named ``name`` with constructors ``ctors``."""

    kind: str
    args: tuple[RType, ...] = ()
    name: str = ""
    ctors: tuple[Ctor, ...] = ()

    def constructors(self) -> tuple[Ctor, ...]:
        """The constructors of a ``sum`` or ``ind`` type, in declaration order (empty for other kinds)."""
        if self.kind == "sum":
            left, right = self.args
            return tuple(
                Ctor(f"@{name} {left.rocq()} {right.rocq()}", (arg,))
                for name, arg in zip(SUM_CONSTRUCTORS, self.args, strict=True)
            )
        return self.ctors

    def rocq(self) -> str:
        """The type as Rocq source with qualified atoms, parenthesised where needed."""
        if self.kind in ATOMS:
            return QUALIFIED.get(self.kind, self.kind)
        if self.kind in ("list", "option"):
            return f"({self.kind} {self.args[0].rocq()})"
        if self.kind == "sum":
            return f"(Coq.Init.Datatypes.sum {self.args[0].rocq()} {self.args[1].rocq()})"
        if self.kind == "ind":
            return self.name
        return "(" + " * ".join(a.rocq() for a in self.args) + ")%type"

    def python(self) -> str:
        """The Python annotation this type corresponds to."""
        if self.kind in ATOMS:
            return PYTHON_OF_ATOM[self.kind]
        if self.kind == "list":
            return f"list[{self.args[0].python()}]"
        if self.kind == "option":
            return f"Optional[{self.args[0].python()}]"
        if self.kind in ("sum", "ind"):
            return "object"
        return "tuple[" + ", ".join(a.python() for a in self.args) + "]"

    def kinds(self) -> set[str]:
        """Every kind this type is built from, itself included (``list (Z * string)``: list, prod, Z, string)."""
        inner = [*self.args, *(arg for ctor in self.ctors for arg in ctor.args)]
        return {self.kind}.union(*(arg.kinds() for arg in inner))

    def __str__(self) -> str:
        if self.kind in ATOMS:
            return self.kind
        if self.kind == "ind":
            return self.name.rsplit(".", 1)[-1]
        if self.kind in ("list", "option", "sum"):
            return " ".join([self.kind, *(str(a) if a.kind in ATOMS else f"({a})" for a in self.args)])
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


_TOKEN = re.compile(r"\s*([A-Za-z_][A-Za-z0-9_']*|\*|\+|\(|\))")


def parse_type(text: str, named: Mapping[str, RType] | None = None) -> RType:
    """Parse a Rocq type string such as ``list (Z * string)``; ``named``: the spec's own types by name."""
    tokens = _tokenize(text)
    rtype, pos = _parse_sum(tokens, 0, text, named or {})
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


_Named = Mapping[str, RType]


def _parse_sum(tokens: list[str], pos: int, text: str, named: _Named) -> tuple[RType, int]:
    """``A + B + C``: left-nested ``sum`` (``+`` binds looser than ``*``, as in Rocq's type scope)."""
    left, pos = _parse_product(tokens, pos, text, named)
    while pos < len(tokens) and tokens[pos] == "+":
        right, pos = _parse_product(tokens, pos + 1, text, named)
        left = RType("sum", (left, right))
    return left, pos


def _parse_product(tokens: list[str], pos: int, text: str, named: _Named) -> tuple[RType, int]:
    items = []
    item, pos = _parse_app(tokens, pos, text, named)
    items.append(item)
    while pos < len(tokens) and tokens[pos] == "*":
        item, pos = _parse_app(tokens, pos + 1, text, named)
        items.append(item)
    if len(items) == 1:
        return items[0], pos
    return RType("prod", tuple(items)), pos


def _parse_app(tokens: list[str], pos: int, text: str, named: _Named) -> tuple[RType, int]:
    if pos >= len(tokens):
        raise TypeSyntaxError(f"type {text!r} ends too early")
    token = tokens[pos]
    if token in ("list", "option"):
        arg, pos = _parse_app(tokens, pos + 1, text, named)
        return RType(token, (arg,)), pos
    if token == "sum":
        left, pos = _parse_app(tokens, pos + 1, text, named)
        right, pos = _parse_app(tokens, pos, text, named)
        return RType("sum", (left, right)), pos
    if token == "(":
        inner, pos = _parse_sum(tokens, pos + 1, text, named)
        if pos >= len(tokens) or tokens[pos] != ")":
            raise TypeSyntaxError(f"unbalanced parentheses in type {text!r}")
        return inner, pos + 1
    if token in ATOMS:
        return RType(token), pos + 1
    if token in named:
        return named[token], pos + 1
    raise TypeSyntaxError(
        f"unknown type {token!r} in {text!r} (supported: {', '.join(ATOMS)}, list, option, sum, *, +, "
        "and inductive types the spec defines)"
    )


@dataclass(frozen=True)
class Param:
    """One named input of a signature."""

    name: str
    rtype: RType


OUTPUT = -1
"""A ``Layout`` role: the binder takes the whole output (``j >= 0`` as ``("output", j)``: its component ``j``)."""


@dataclass(frozen=True)
class Layout:
    """How a definition's binders take the Python values, in binder order.

    ``names[b]`` is binder ``b``'s name and ``roles[b]`` what it receives: ``("input", i)`` the
    entry point's argument ``i``, ``("output", OUTPUT)`` the output, ``("output", j)`` component
    ``j`` of a tuple output split over several binders. A spec with no output role is a predicate
    on the inputs whose truth is the (boolean) output."""

    names: tuple[str, ...]
    roles: tuple[tuple[str, int], ...]

    def describe(self, param_names: Sequence[str]) -> str:
        """``input <- strings, output <- result, sub <- substring``: which value each binder takes."""
        values = [
            param_names[index] if role == "input" else ("result" if index == OUTPUT else f"result[{index}]")
            for role, index in self.roles
        ]
        return ", ".join(f"{name} <- {value}" for name, value in zip(self.names, values, strict=True))


@dataclass(frozen=True)
class Signature:
    """The entry point, its typed inputs and its output type, e.g. ``add (x : Z) (y : Z) : Z``.

    ``spec_layout``/``pre_layout``: the order in which the spec's and the precondition's binders
    take the values (default: the inputs, then the output)."""

    name: str
    params: tuple[Param, ...]
    output: RType
    spec_ident: str | None = None
    pre_ident: str | None = None
    spec_layout: Layout | None = None
    pre_layout: Layout | None = None

    @property
    def spec_name(self) -> str:
        """The name the spec must define: ``<entry point>_spec`` unless the signature names another."""
        return self.spec_ident or f"{self.name}_spec"

    @property
    def pre_name(self) -> str:
        """The optional precondition's name: ``<entry point>_pre`` unless the signature names another."""
        return self.pre_ident or f"{self.name}_pre"

    @property
    def is_predicate(self) -> bool:
        """True when the spec has no output binder: it holds exactly when the (boolean) output is ``true``."""
        return self.spec_layout is not None and all(role == "input" for role, _ in self.spec_layout.roles)

    def kinds(self) -> set[str]:
        """Every type kind the inputs and the output are built from."""
        return self.output.kinds().union(*(p.rtype.kinds() for p in self.params))

    def role_type(self, role: tuple[str, int]) -> RType:
        """The type of the value a binder with ``role`` takes."""
        kind, index = role
        if kind == "input":
            return self.params[index].rtype
        return self.output if index == OUTPUT else self.output.args[index]

    def spec_roles(self) -> tuple[tuple[str, int], ...]:
        """What each of the spec's binders takes, in binder order."""
        if self.spec_layout is not None:
            return self.spec_layout.roles
        return (*(("input", i) for i in range(len(self.params))), ("output", OUTPUT))

    def pre_roles(self) -> tuple[tuple[str, int], ...]:
        """What each of the precondition's binders takes, in binder order."""
        if self.pre_layout is not None:
            return self.pre_layout.roles
        return tuple(("input", i) for i in range(len(self.params)))

    def spec_type(self) -> str:
        """The Rocq type the spec must have: its binders' types, in binder order, to ``Prop``."""
        return " -> ".join([self.role_type(r).rocq() for r in self.spec_roles()] + ["Prop"])

    def pre_type(self) -> str:
        """The Rocq type of the precondition: the inputs (in its binder order) to ``Prop``."""
        return " -> ".join([self.role_type(r).rocq() for r in self.pre_roles()] + ["Prop"])

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
