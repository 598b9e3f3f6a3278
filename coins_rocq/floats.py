"""Float outputs: rounded to the digits kept, and read as the interval a rounded real stands for.

A canonical solution computes in binary floating point (``1.33 - 1`` is
``0.33000000000000007``) while a spec over ``Q``/``R`` computes exactly on the decimal
inputs, so every ``Q``/``R`` float of an output is rounded to ``FLOAT_OUTPUT_DIGITS``
significant digits (HumanEval itself compares such outputs to 1e-6). That restores an exact
decimal (``0.33``), but not a real the decimals cannot write: ``2/3`` is printed
``0.666666666667``. A rounded value that needs every kept digit stands for the interval of one
unit of its last digit around it (``rounding_unit``), and the completeness obligation may read
it so (``with_unknowns``: each such real becomes an unknown, ``coins_rocq.obligations``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from coins_rocq.rtypes import RType
from coins_rocq.values import Unknown

FLOAT_OUTPUT_DIGITS = 12
"""Significant digits kept of a float output."""

REAL_KINDS = ("Q", "R")


def round_float_output(value: Any, rtype: RType) -> Any:
    """``value`` with every ``Q``/``R`` float rounded to ``FLOAT_OUTPUT_DIGITS`` significant digits."""
    if rtype.kind == "pyvalue":
        return _round_python_value(value)
    return _map_reals(value, rtype, lambda leaf, _kind: _rounded(leaf))


def _rounded(value: Any) -> Any:
    """A float rounded to the digits kept; any other value as it is."""
    return float(f"{value:.{FLOAT_OUTPUT_DIGITS}g}") if isinstance(value, float) else value


def _round_python_value(value: Any) -> Any:
    """A Python value with every float in it rounded as ``round_float_output`` rounds a ``Q``."""
    if isinstance(value, float):
        return _rounded(value)
    if isinstance(value, (list, tuple)):
        items = [_round_python_value(v) for v in value]
        return items if isinstance(value, list) else tuple(items)
    if isinstance(value, dict):
        return {k: _round_python_value(v) for k, v in value.items()}
    return value


def _map_reals(value: Any, rtype: RType, leaf: Callable[[Any, str], Any]) -> Any:
    """``value`` with ``leaf(v, kind)`` in place of each ``Q``/``R`` value ``v`` in lists, options and tuples."""
    kind = rtype.kind
    if kind in REAL_KINDS:
        return leaf(value, kind)
    if kind == "list":
        return [_map_reals(v, rtype.args[0], leaf) for v in value]
    if kind == "option":
        return None if value is None else _map_reals(value, rtype.args[0], leaf)
    if kind == "prod":
        return tuple(_map_reals(v, t, leaf) for v, t in zip(value, rtype.args, strict=False))
    return value


def rounding_unit(value: Any) -> Fraction | None:
    """One unit of the last kept digit of a rounded float that needs all ``FLOAT_OUTPUT_DIGITS``; else None.

    ``0.666666666667`` gives ``10**-12``: the true value lies within it (the rounding moved it
    by at most half a unit, the float arithmetic before by far less). ``0.33`` or an integer
    gives None: the decimal is exact.
    """
    if not isinstance(value, float) or value == 0:
        return None
    decimal = Decimal(repr(value)).normalize()
    if len(decimal.as_tuple().digits) < FLOAT_OUTPUT_DIGITS:
        return None
    return Fraction(10) ** (decimal.adjusted() - FLOAT_OUTPUT_DIGITS + 1)


@dataclass(frozen=True)
class RoundedReal:
    """One rounded real of an output: the unknown that replaces it, its type, value and interval's half-width."""

    unknown: Unknown
    kind: str
    value: float
    unit: Fraction


def with_unknowns(value: Any, rtype: RType) -> tuple[Any, list[RoundedReal]]:
    """``value`` with each rounded real (``rounding_unit`` not None) replaced by an unknown ``coins_r<k>``."""
    found: list[RoundedReal] = []

    def leaf(v: Any, kind: str) -> Any:
        unit = rounding_unit(v)
        if unit is None:
            return v
        unknown = Unknown(f"coins_r{len(found)}")
        found.append(RoundedReal(unknown, kind, v, unit))
        return unknown

    return _map_reals(value, rtype, leaf), found
