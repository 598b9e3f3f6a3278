"""Coins: judge Rocq specifications of programs by proving them on trusted test cases.

Usable on its own (it does not import the harness)::

    from coins_rocq import CoqtopPool, check_spec, parse_signature, Case
    with CoqtopPool() as pool:
        report = check_spec(source, parse_signature("add (x : Z) (y : Z) : Z"),
                            [Case((2, 3), 5)], pool)
    report.verdict  # "correct", "too_strong", "too_weak", "undecided" or "invalid"
"""

from coins_rocq.backends import CoqcBackend, CoqtopPool, Limits
from coins_rocq.checker import SpecReport, check_spec, check_specs
from coins_rocq.ladder import LADDER
from coins_rocq.obligations import Case
from coins_rocq.rtypes import Signature, parse_signature, parse_type
from coins_rocq.safety import UnsafeSpec, screen
from coins_rocq.verdicts import VERDICTS

__all__ = [
    "LADDER",
    "VERDICTS",
    "Case",
    "CoqcBackend",
    "CoqtopPool",
    "Limits",
    "Signature",
    "SpecReport",
    "UnsafeSpec",
    "check_spec",
    "check_specs",
    "parse_signature",
    "parse_type",
    "screen",
]
