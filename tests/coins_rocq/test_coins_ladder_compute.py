"""Decidable claims over concrete data are computed: permutations, parities, comparisons of closed naturals.

Each is decided by a boolean reflection (``Nat.leb``, ``Nat.even``, a permutation checker) rather
than by building a proof term step by step, which on unary naturals or long lists spends the
per-goal timeout. The shapes are written here (the upstream specs carry no licence).
"""

from __future__ import annotations

import pytest
from coins_shapes import Shape, assert_all_correct, judge

from coins_rocq import Case

PERMUTATION_SHAPES: list[Shape] = [
    # A rearrangement of literal lists, decided by computation whatever the length (by
    # constructors, a wrong output with every element but one was a long refutation).
    (
        "From Coq Require Import Sorting.Permutation.\n"
        "Definition sort_spec (l o : list Z) : Prop := Permutation l o /\\ Sorted Z.le o.",
        "sort (l : list Z) : list Z",
        [
            Case(([7, -2, 7, 0, 11, 3, 3, -9, 5, 1],), [-9, -2, 0, 1, 3, 3, 5, 7, 7, 11]),
            Case(([],), []),
            Case(([4],), [4]),
        ],
    ),
    # Over strings, and the other way round, a rearrangement of a computed list.
    (
        "From Coq Require Import Sorting.Permutation.\n"
        "Definition words_spec (l o : list string) : Prop := Permutation o (rev l) /\\ length o = length l /\\\n"
        "  Sorted (fun a b => String.leb a b = true) o.",
        "words (l : list string) : list string",
        [Case((["pear", "fig", "apple", "fig"],), ["apple", "fig", "fig", "pear"])],
    ),
]


@pytest.mark.slow
def test_permutations_of_concrete_lists_are_decided_by_computation() -> None:
    assert_all_correct(PERMUTATION_SHAPES)


PARITY_SHAPES: list[Shape] = [
    # Nat.Even / Nat.Odd (and Z's) of a literal are decided by their boolean reflection
    # (Nat.even_spec): a goal computes, and a false hypothesis closes its branch.
    (
        "Definition even_flags_spec (l o : list nat) : Prop := length o = length l /\\\n"
        "  forall i : nat, i < length l -> (Nat.Even (nth i l 0) <-> nth i o 0 = 1).",
        "even_flags (l : list nat) : list nat",
        [Case(([1, 2, 3, 4],), [0, 1, 0, 1]), Case(([5],), [0])],
    ),
    (
        "Definition has_odd_spec (l : list Z) (b : bool) : Prop :=\n"
        "  b = true <-> exists i : nat, i < length l /\\ Z.Odd (nth i l 0%Z).",
        "has_odd (l : list Z) : bool",
        [Case(([2, 4],), False), Case(([2, -3],), True)],
    ),
]


@pytest.mark.slow
def test_parity_of_a_literal_is_decided_by_computation() -> None:
    assert_all_correct(PARITY_SHAPES)


LARGE_COMPARISON_SHAPES: list[Shape] = [
    # A comparison of large naturals met among constructors (Forall of `n > 0` over 1422) is
    # computed with Nat.ltb, not built from le_S 1421 times until the ladder's timeout.
    (
        "Definition total_pre (l : list nat) : Prop := Forall (fun n => n > 0) l.\n"
        "Definition total_spec (l : list nat) (o : nat) : Prop := o = fold_right plus 0 l.",
        "total (l : list nat) : nat",
        [Case(([15, 1422, 1],), 1438), Case(([2500],), 2500)],
    ),
    # A false comparison of closed naturals is not taken apart by le_S down to 0 either: a
    # precondition's disjunction over each character of a long string, which the constructors
    # cannot choose, fails at once and leaves the timeout to the search.
    (
        "Definition spaces_pre (s : list ascii) : Prop :=\n"
        "  Forall (fun c => let n := nat_of_ascii c in\n"
        '    (65 <= n /\\ n <= 90) \\/ (97 <= n /\\ n <= 122) \\/ c = " "%char) s.\n'
        "Definition spaces_spec (s : list ascii) (o : nat) : Prop :=\n"
        '  o = length (filter (fun c => Ascii.eqb c " "%char) s).',
        "spaces (s : list ascii) : nat",
        [Case(("Alpha beta Gamma delta epsilon Zeta eta",), 6), Case(("x",), 0)],
    ),
]


@pytest.mark.slow
def test_comparisons_of_closed_naturals_among_constructors_are_computed_not_built() -> None:
    assert_all_correct(LARGE_COMPARISON_SHAPES)


LARGE_NATURAL_SHAPES: list[Shape] = [
    # Naturals above 30000 (written `CoinsBig.coins_big_nat 98765%Z`): `vm_compute` would read the
    # unary number back recursively and overflow the stack, an error no tactic catches, ending the
    # ladder before `lia` (which reads the sealed natural as its integer) could decide the goal.
    (
        "Definition Pre (n : nat) : Prop := n > 0.\n"
        "Definition half_spec (n o : nat) : Prop := o + o = n \\/ o + o + 1 = n.",
        "half (n : nat) : nat",
        [Case((98765,), 49382), Case((7,), 3)],
    ),
]


BIG_NATURAL_SHAPES: list[Shape] = [
    # A product of factors equal to a natural above 30000: `simpl` would build the product in
    # unary one constructor at a time and overflow the stack; the closed equation is decided by
    # `Nat.eqb`, whose result alone is read back, and a wrong output's false equation closes its
    # branch the same way.
    (
        "Definition factors_spec (n : nat) (o : list nat) : Prop :=\n"
        "  fold_right Nat.mul 1 o = n /\\ Forall (fun p => 1 < p) o /\\ Sorted le o.",
        "factors (n : nat) : list nat",
        [Case((102102,), [2, 3, 7, 11, 13, 17]), Case((12,), [2, 2, 3])],
    ),
    # A composite above 30000 refuted as a prime: the claim over every divisor is instantiated at
    # the divisors, found in pairs up to the square root of the number; a divisor above the
    # unary bound stays sealed.
    (
        "Definition is_prime_spec (n : nat) (b : bool) : Prop :=\n"
        "  (1 < n /\\ forall d, n mod d = 0 -> d = 1 \\/ d = n) <-> b = true.",
        "is_prime (n : nat) : bool",
        [Case((102947,), False), Case((13441,), True), Case((85,), False)],
    ),
]


@pytest.mark.slow
def test_goals_holding_naturals_too_large_to_read_back_are_not_computed() -> None:
    assert_all_correct(LARGE_NATURAL_SHAPES)


@pytest.mark.slow
def test_claims_over_naturals_too_large_for_unary_terms_are_decided() -> None:
    assert_all_correct(BIG_NATURAL_SHAPES)


CLOSED_SHAPES: list[Shape] = [
    # Every obligation is a closed claim over literals: computed and closed by the first rung that
    # computes. A guard that failed on every goal would leave that rung deciding nothing while the
    # later rungs hid it behind the same verdict.
    (
        "Definition add_spec (x y o : Z) : Prop := o = (x + y)%Z.",
        "add (x : Z) (y : Z) : Z",
        [Case((2, 3), 5), Case((-7, 4), -3)],
    ),
]


@pytest.mark.slow
def test_closed_claims_over_literals_are_decided_by_the_compute_rung() -> None:
    [report] = judge(CLOSED_SHAPES)
    assert report.verdict == "correct", report.reason
    assert report.rungs() == {"compute-decide": len(report.results)}


NUMBER_THEORY_SHAPES: list[Shape] = [
    # The standard library's prime and divisibility (Znumtheory): a closed claim is reflected
    # into a boolean; a divisor q of a numeral, once prime q gives 2 <= q, ranges over its divisors.
    (
        "From Coq Require Import ZArith Znumtheory.\nOpen Scope Z_scope.\n"
        "Definition lpf_spec (n p : Z) : Prop :=\n"
        "  prime p /\\ (p | n) /\\ forall q, prime q -> (q | n) -> q <= p.",
        "lpf (n : Z) : Z",
        [Case((15,), 5), Case((27,), 3), Case((13195,), 29)],
    ),
    (
        "From Coq Require Import ZArith Znumtheory.\n"
        "Definition is_prime_spec (n : Z) (b : bool) : Prop := b = true <-> prime n.",
        "is_prime (n : Z) : bool",
        [Case((2,), True), Case((1,), False), Case((97,), True), Case((91,), False), Case((-7,), False)],
    ),
    (
        "From Coq Require Import ZArith Znumtheory.\n"
        "Definition coprime_spec (a b : Z) (r : bool) : Prop := r = true <-> rel_prime a b.",
        "coprime (a : Z) (b : Z) : bool",
        [Case((8, 15), True), Case((6, 9), False)],
    ),
]


@pytest.mark.slow
def test_primes_and_divisibility_of_the_standard_library_are_decided_by_reflection() -> None:
    assert_all_correct(NUMBER_THEORY_SHAPES)


@pytest.mark.slow
def test_a_largest_prime_factor_spec_that_wants_a_strictly_larger_factor_is_too_strong() -> None:
    source, signature, cases = NUMBER_THEORY_SHAPES[0]
    strict = source.replace("q <= p.", "q < p.")
    assert strict != source
    (report,) = judge([(strict, signature, cases)])
    assert report.verdict == "too_strong", report.reason
