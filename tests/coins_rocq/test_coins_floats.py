"""Float outputs: rounded to the digits kept, and a rounded real read as the interval it stands for."""

from __future__ import annotations

from fractions import Fraction

from coins_rocq import Case, parse_signature
from coins_rocq.floats import round_float_output, rounding_unit, with_unknowns
from coins_rocq.obligations import build_obligations
from coins_rocq.rtypes import RType
from coins_rocq.values import Unknown


def test_float_outputs_are_rounded_to_twelve_digits_in_every_container() -> None:
    assert round_float_output(1.33 - 1, RType("R")) == 0.33
    pairs = RType("prod", (RType("list", (RType("Q"),)), RType("option", (RType("R"),))))
    assert round_float_output(([2 / 3, 1], 0.1 + 0.2), pairs) == ([0.666666666667, 1], 0.3)
    assert round_float_output({"a": [1 / 3]}, RType("pyvalue")) == {"a": [0.333333333333]}
    assert round_float_output(2 / 3, RType("Z")) == 2 / 3


def test_a_rounded_value_that_needs_every_kept_digit_stands_for_one_unit_of_its_last_digit() -> None:
    assert rounding_unit(0.666666666667) == Fraction(1, 10**12)
    assert rounding_unit(-123456.789012) == Fraction(1, 10**6)
    assert rounding_unit(123456789012.0) == 1
    assert rounding_unit(1.5e20) is None
    for exact in (0.33, 0.0, 1.0, 5, True, "0.666666666667"):
        assert rounding_unit(exact) is None


def test_each_rounded_real_becomes_an_unknown_and_exact_ones_stay() -> None:
    rtype = parse_signature("f (x : Z) : list R * R").output
    value, rounded = with_unknowns(([0.5, 0.333333333333], 0.666666666667), rtype)
    assert value == ([0.5, Unknown("coins_r0")], Unknown("coins_r1"))
    assert [(r.kind, r.value, r.unit) for r in rounded] == [
        ("R", 0.333333333333, Fraction(1, 10**12)),
        ("R", 0.666666666667, Fraction(1, 10**12)),
    ]


def test_only_a_rounded_true_output_gets_an_interval_goal_and_its_negation_negates_that() -> None:
    signature = parse_signature("mean (l : list R) : R")
    exact, rounded = build_obligations(
        signature, [Case(([1.0, 2.0],), 1.5), Case(([1.0, 1.0, 2.0],), 1.333333333333)], has_pre=False
    )[::6]
    assert exact.kind == rounded.kind == "completeness"
    assert exact.interval is None and exact.negated_goal == exact.goal
    assert rounded.interval is not None and rounded.negated_goal == rounded.interval
    assert rounded.interval.startswith("(Coq.Init.Logic.ex (fun coins_r0 : Coq.Reals.Rdefinitions.R =>")
    assert "CoinsSpec.mean_spec" in rounded.interval and "coins_within" in rounded.interval
    assert rounded.negation == f"Coq.Init.Logic.not ({rounded.interval})"
    assert "1333333333333" in rounded.goal and "coins_r0" not in rounded.goal
