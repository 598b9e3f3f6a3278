"""Real-valued specs: absolute values split by sign, and a rounded real output read as its interval.

The shapes are written here (the upstream specs carry no licence).
"""

from __future__ import annotations

import pytest
from coins_shapes import Shape, assert_all_correct, judge

from coins_rocq import Case, CoqtopPool, check_specs, parse_signature

REAL_DISTANCE_SHAPES: list[Shape] = [
    # Distances between reals of a literal list: every pair of indices is a case, each an
    # inequality of absolute values that `lra` decides once each `Rabs` is split by its sign;
    # a wrong pair is refuted at the one pair of indices that is closer.
    (
        "Definition closest_pair_spec (l : list R) (o : R * R) : Prop :=\n"
        "  In (fst o) l /\\ In (snd o) l /\\ (fst o <= snd o)%R /\\\n"
        "  (forall i j : nat, i < length l -> j < length l -> i <> j ->\n"
        "     (Rabs (fst o - snd o) <= Rabs (nth i l 0 - nth j l 0))%R).",
        "closest_pair (l : list R) : R * R",
        [Case(([1.0, 2.5, 4.0, 2.25],), (2.25, 2.5)), Case(([-1.0, 3.0, -1.5],), (-1.5, -1.0))],
    ),
]


@pytest.mark.slow
def test_absolute_values_of_reals_are_split_by_sign_and_pairs_instantiated() -> None:
    assert_all_correct(REAL_DISTANCE_SHAPES)


ROUNDED_REAL_SHAPES: list[Shape] = [
    # A real the decimals cannot write: the canonical output 4/3 is printed 1.33333333333 and
    # an exact spec computes 4/3; the interval reading proves it (the spec fixes the unknown).
    (
        "Local Open Scope R_scope.\n"
        "Definition mean_spec (l : list R) (r : R) : Prop :=\n"
        "  l <> nil -> r = fold_right Rplus 0 l / INR (length l).",
        "mean (l : list R) : R",
        [Case(([1.0, 1.0, 2.0],), 4 / 3), Case(([0.5, 1.5],), 1.0)],
    ),
    # Several rounded reals, in a list over Q (closed by computation) and in a pair over R.
    (
        "From Coq Require Import QArith.\n"
        "Definition thirds_spec (l r : list Q) : Prop := Forall2 (fun x y => Qeq y (x / 3)) l r.",
        "thirds (l : list Q) : list Q",
        [Case(([1.0, 3.0, 2.0],), [1 / 3, 1.0, 2 / 3])],
    ),
    (
        "Local Open Scope R_scope.\n"
        "Definition stats_spec (l : list R) (o : R * R) : Prop :=\n"
        "  fst o = fold_right Rplus 0 l / 3 /\\ snd o = fold_right Rmult 1 l / 7.",
        "stats (l : list R) : R * R",
        [Case(([1.0, 1.0, 2.0],), (4 / 3, 2 / 7))],
    ),
]


@pytest.mark.slow
def test_a_rounded_real_output_is_read_as_the_interval_it_stands_for() -> None:
    assert_all_correct(ROUNDED_REAL_SHAPES)


@pytest.mark.slow
def test_a_spec_that_rejects_the_whole_interval_is_too_strong() -> None:
    off = (
        "Local Open Scope R_scope.\nDefinition mean_spec (l : list R) (r : R) : Prop :=\n"
        "  r = fold_right Rplus 0 l / 3 + / 1000000."
    )
    cases = [Case(([1.0, 1.0, 2.0],), 4 / 3)]
    with CoqtopPool(1) as pool:
        (report,) = check_specs([(off, parse_signature("mean (l : list R) : R"), cases)], pool)
    assert report.verdict == "too_strong"
    refuted = [r for r in report.results if r.outcome == "refuted"]
    assert [(r.obligation.kind, r.rung) for r in refuted] == [("completeness", "interval")]


SQUARE_ROOT_SHAPES: list[Shape] = [
    # A length rounded to two decimals: each closed square root is bounded by two rationals
    # (exact for 25, 6.25), and the rounding witness z is solved from r = IZR z / 100.
    (
        "Local Open Scope R_scope.\n"
        "Definition hypotenuse_spec (a b r : R) : Prop :=\n"
        "  (exists z : Z, r = IZR z / 100) /\\ Rabs (r - sqrt (a * a + b * b)) <= / 200.",
        "hypotenuse (a : R) (b : R) : R",
        [Case((3.0, 4.0), 5.0), Case((1.0, 1.0), 1.41), Case((2.0, 3.0), 3.61), Case((1.5, 2.0), 2.5)],
    ),
    # The root of a negative number is 0 in Rocq's reals; a rational square's root is exact.
    (
        "Local Open Scope R_scope.\nDefinition root_gap_spec (a b r : R) : Prop := r = sqrt (a - b).",
        "root_gap (a : R) (b : R) : R",
        [Case((1.0, 2.0), 0.0), Case((6.25, 0.0), 2.5), Case((10.0, 1.0), 3.0)],
    ),
]


@pytest.mark.slow
def test_square_roots_of_closed_terms_are_bounded_and_rounding_witnesses_solved() -> None:
    assert_all_correct(SQUARE_ROOT_SHAPES)


@pytest.mark.slow
def test_a_spec_that_truncates_a_square_root_instead_of_rounding_is_too_strong() -> None:
    truncating = (
        "Local Open Scope R_scope.\n"
        "Definition hypotenuse_spec (a b r : R) : Prop :=\n"
        "  (exists z : Z, r = IZR z / 100) /\\ r <= sqrt (a * a + b * b) < r + / 100."
    )
    cases = [Case((3.0, 4.0), 5.0), Case((2.0, 3.0), 3.61)]
    (report,) = judge([(truncating, "hypotenuse (a : R) (b : R) : R", cases)])
    assert report.verdict == "too_strong", report.reason
    refuted = [r.obligation for r in report.results if r.outcome == "refuted"]
    assert refuted and refuted[0].kind == "completeness" and refuted[0].case == 1


@pytest.mark.slow
def test_square_roots_of_huge_and_undefined_terms_are_bounded_or_left_alone() -> None:
    # A radicand of 10^60 is bounded like any other (its root is exact); one divided by zero
    # has no value the fraction arithmetic accepts, so no bound is added and every obligation is
    # left unknown (lra knows nothing of / 0), never an error.
    source = "Local Open Scope R_scope.\nDefinition root_ratio_spec (a b r : R) : Prop := r = sqrt (a / b)."
    signature = "root_ratio (a : R) (b : R) : R"
    huge, by_zero = judge(
        [(source, signature, [Case((1e60, 1.0), 1e30)]), (source, signature, [Case((4.0, 0.0), 0.0)])]
    )
    assert huge.verdict == "correct", huge.reason
    assert by_zero.verdict == "undecided", by_zero.reason
    assert {r.outcome for r in by_zero.results} == {"unknown"}
