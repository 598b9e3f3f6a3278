"""The ladder's specialised rungs (recurrence, real-integers, index-set, sorted-permutation, pinned)
decide the shapes the search cannot: each test's shapes were undecided before its rung existed."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from coins_shapes import Shape, assert_all_correct, verdicts

from coins_rocq import Case
from coins_rocq.ladder_pinned import NAME_NUMERALS_LTAC

RECURRENCE_SHAPES: list[Shape] = [
    # Tribonacci as a relation whose step has three recursive premises: a proof or a
    # refutation premise by premise grows exponentially with the index (undecided at 12 before
    # the recurrence rung); built bottom-up it is linear.
    (
        "Inductive trib : nat -> nat -> Prop :=\n"
        "| t0 : trib 0 0 | t1 : trib 1 1 | t2 : trib 2 1\n"
        "| tS : forall n a b c, trib n a -> trib (S n) b -> trib (S (S n)) c -> trib (S (S (S n))) (a + b + c).\n"
        "Definition trib_spec (n r : nat) : Prop := trib n r.",
        "trib (n : nat) : nat",
        [Case((12,), 504), Case((13,), 927)],
    ),
    # The same with the output named by an equation premise, which the step proves by
    # reflexivity and the inversion substitutes.
    (
        "Inductive trib_eq : nat -> nat -> Prop :=\n"
        "| e0 : trib_eq 0 0 | e1 : trib_eq 1 1 | e2 : trib_eq 2 1\n"
        "| eS : forall n a b c r, trib_eq n a -> trib_eq (S n) b -> trib_eq (S (S n)) c -> r = a + b + c ->\n"
        "    trib_eq (S (S (S n))) r.\n"
        "Definition trib_eq_spec (n r : nat) : Prop := trib_eq n r.",
        "trib_eq (n : nat) : nat",
        [Case((12,), 504)],
    ),
]


@pytest.mark.slow
def test_recurrence_rung_builds_a_relation_over_its_index_bottom_up() -> None:
    assert_all_correct(RECURRENCE_SHAPES)


REAL_INTEGER_SHAPES: list[Shape] = [
    # A nearest integer, ties to the larger magnitude: `forall z : Z` over real distances
    # needs the integers split around the input (no integer lies strictly between 2 and 3)
    # and `Rabs` split by cases; a wrong output is refuted by the instance at a neighbour.
    (
        "Definition nearest_spec (r : R) (n : Z) : Prop :=\n"
        "  (forall z : Z, (Rabs (r - IZR n) <= Rabs (r - IZR z))%R) /\\\n"
        "  (forall z : Z, Rabs (r - IZR n) = Rabs (r - IZR z) -> (Z.abs z <= Z.abs n)%Z).",
        "nearest (r : R) : Z",
        [Case((2.4,), 2), Case((-3.7,), -4), Case((2.5,), 3), Case((-0.5,), -1), Case((7.0,), 7)],
    ),
    # An integer defined as the first component of a sigma type (Coquelicot's `floor x` is
    # `proj1_sig (floor_ex x)`, its property `IZR n <= x < IZR n + 1`): the rung opens it into
    # a variable with its property and splits that variable at the pivots of the goal and of
    # the property; no `forall` over Z anywhere.
    (
        "Require Import Coquelicot.Coquelicot.\nDefinition floor_spec (x : R) (n : Z) : Prop := n = floor x.",
        "floor (x : R) : Z",
        [Case((2.5,), 2), Case((-1.5,), -2), Case((3.0,), 3)],
    ),
    (
        "Require Import Coquelicot.Coquelicot.\n"
        "Definition frac_spec (x : R) (y : R) : Prop := (0 <= x)%R -> y = (x - IZR (floor x))%R.",
        "frac (x : R) : R",
        [Case((2.5,), 0.5), Case((7.25,), 0.25)],
    ),
]

WRONG_REAL_INTEGER_SHAPES: list[Shape] = [
    # One too many: the true floor is refuted (too_strong); a bound only: a smaller output is
    # accepted (too_weak).
    (
        "Require Import Coquelicot.Coquelicot.\nDefinition floor_spec (x : R) (n : Z) : Prop := n = (floor x + 1)%Z.",
        "floor (x : R) : Z",
        [Case((2.5,), 2), Case((-1.5,), -2)],
    ),
    (
        "Require Import Coquelicot.Coquelicot.\nDefinition floor_spec (x : R) (n : Z) : Prop := (n <= floor x)%Z.",
        "floor (x : R) : Z",
        [Case((2.5,), 2), Case((-1.5,), -2)],
    ),
]


@pytest.mark.slow
def test_real_integers_rung_splits_integers_around_the_reals_of_the_goal() -> None:
    assert_all_correct(REAL_INTEGER_SHAPES)


@pytest.mark.slow
def test_real_integers_rung_refutes_a_wrong_integer_part_both_ways() -> None:
    assert verdicts(WRONG_REAL_INTEGER_SHAPES) == ["too_strong", "too_weak"]


INDEX_SET_SHAPES: list[Shape] = [
    # A count as the length of a duplicate-free list of indices, each satisfying a property
    # and every index below the bound that satisfies it included: the witness is the filtered
    # range, which no unification finds, and a wrong count is refuted by counting (the
    # assumed list is within the filtered range, or covers it).
    (
        "Definition count_even_spec (l : list nat) (n : nat) : Prop :=\n"
        "  exists ix : list nat, NoDup ix /\\\n"
        "    (forall i, In i ix -> i < length l /\\ Nat.even (nth i l 0) = true) /\\\n"
        "    (forall i, i < length l -> Nat.even (nth i l 0) = true -> In i ix) /\\ n = length ix.",
        "count_even (l : list nat) : nat",
        [Case(([1, 2, 4, 7, 8],), 3), Case(([],), 0), Case(([2, 2, 2, 2, 2, 2],), 6)],
    ),
    # The bound as `i + length p <= length t`, the property a slice equation.
    (
        "Definition occurrences_spec (t p : list nat) (n : nat) : Prop :=\n"
        "  exists ix : list nat, NoDup ix /\\\n"
        "    (forall i, i + length p <= length t -> firstn (length p) (skipn i t) = p -> In i ix) /\\\n"
        "    (forall i, In i ix -> i + length p <= length t /\\ firstn (length p) (skipn i t) = p) /\\\n"
        "    n = length ix.",
        "occurrences (t : list nat) (p : list nat) : nat",
        [Case(([1, 2, 1, 2, 1], [1, 2, 1]), 2), Case(([3, 3, 3], [3]), 3), Case(([1], [2]), 0)],
    ),
    # A count of distinct values: the list holds the image of every index (here the absolute
    # value of each element), so the witness is the images deduplicated, and a wrong count is
    # refuted by the same counting (every member is some index's image, or covers them).
    (
        "Definition distinct_abs_spec (l : list Z) (n : nat) : Prop :=\n"
        "  exists d : list Z, NoDup d /\\\n"
        "    (forall i, i < length l -> In (Z.abs (nth i l 0%Z)) d) /\\\n"
        "    (forall x, In x d -> exists i, i < length l /\\ x = Z.abs (nth i l 0%Z)) /\\ n = length d.",
        "distinct_abs (l : list Z) : nat",
        [Case(([1, -1, 2],), 2), Case(([],), 0), Case(([3, 3, -4, 3],), 2)],
    ),
]


@pytest.mark.slow
def test_index_set_rung_builds_a_filtered_range_and_refutes_wrong_counts_by_counting() -> None:
    assert_all_correct(INDEX_SET_SHAPES)


SORTED_PERMUTATION_SHAPES: list[Shape] = [
    # A sorted rearrangement as an existential: the witness is the input sorted, which no
    # unification finds; a wrong output is refuted at the one sorted permutation of the input.
    (
        "From Coq Require Import Sorting.Permutation.\n"
        "Definition sort_desc_spec (l o : list Z) : Prop :=\n"
        "  exists s, Permutation l s /\\ Sorted Z.le s /\\ o = rev s.",
        "sort_desc (l : list Z) : list Z",
        [Case(([3, 1, 2],), [3, 2, 1]), Case(([],), []), Case(([5, -5, 5, 1],), [5, 5, 1, -5])],
    ),
    # The permutation the other way round, of a computed list, over naturals.
    (
        "From Coq Require Import Sorting.Permutation.\n"
        "Definition squares_then_succ_spec (l o : list nat) : Prop :=\n"
        "  exists s, Permutation s (map (fun x => x * x) l) /\\ Sorted le s /\\\n"
        "    o = map S s.",
        "squares_then_succ (l : list nat) : list nat",
        [Case(([3, 1, 2],), [2, 5, 10]), Case(([0, 0],), [1, 1])],
    ),
    # No Permutation: the sorted list is pinned by its length and its members, and is the
    # output itself; the witness is a literal list of the goal, sorted.
    (
        "Definition sort_members_spec (l o : list Z) : Prop :=\n"
        "  exists s, Sorted Z.le s /\\ length s = length l /\\ (forall x, In x s <-> In x l) /\\ o = s.",
        "sort_members (l : list Z) : list Z",
        [Case(([3, 1, 2],), [1, 2, 3]), Case(([5, -1],), [-1, 5]), Case(([],), [])],
    ),
]


@pytest.mark.slow
def test_sorted_permutation_rung_sorts_the_witness_and_pins_the_rearrangement() -> None:
    assert_all_correct(SORTED_PERMUTATION_SHAPES)


FIRST_TWO = (
    "Fixpoint first_two (l : list nat) : option (nat * nat) :=\n"
    "  match l with a :: (b :: _) => Some (a, b) | _ => None end.\n"
)
"""A parser of a structured value, shared by two pinned shapes."""

PINNED_SHAPES: list[Shape] = [
    # Natural witnesses each named by an equation with a closed side (`h = n / 100`): tried
    # as candidates, level by level, they multiply, and `simpl` unfolds `100 * h` while `h`
    # is unknown; pinned by their equations first, the rest is fixed by unification, and a
    # refutation splits the digit cases one at a time.
    (
        "Definition digits3_spec (n : nat) (o : list nat) : Prop :=\n"
        "  n < 1000 /\\ exists h t u, n = 100 * h + 10 * t + u /\\ h = n / 100 /\\ t = (n / 10) mod 10 /\\\n"
        "    u = n mod 10 /\\ ((h = 0 /\\ o = t :: u :: nil) \\/ (h <> 0 /\\ o = h :: t :: u :: nil)).",
        "digits3 (n : nat) : list nat",
        [Case((472,), [4, 7, 2]), Case((58,), [5, 8]), Case((905,), [9, 0, 5])],
    ),
    # Thousands: the input (above 2000, one as `Z.to_nat 2999%Z`) is named before the spec
    # is unfolded, so the witnesses' tactics do not traverse a unary 2999 at every step.
    (
        "Definition thousands_spec (n : nat) (o : list nat) : Prop :=\n"
        "  n < 3000 /\\ exists m c, n = 1000 * m + c /\\ m = n / 1000 /\\ c = n mod 1000 /\\\n"
        "    ((c = 0 /\\ o = m :: nil) \\/ (c <> 0 /\\ o = m :: c :: nil)).",
        "thousands (n : nat) : list nat",
        [Case((2999,), [2, 999]), Case((2000,), [2])],
    ),
    # Witnesses fixed by a computed structured value (`first_two l = Some (a, b)`, as
    # HumanEval/144's `Pre` parses its fractions): the value is computed and unified with
    # the pattern; a refutation computes it and injects it into the variables (undecided
    # before: no numeral equation pinned them).
    (
        FIRST_TWO + "Definition pair_product_spec (l : list nat) (o : nat) : Prop :=\n"
        "  exists a b, first_two l = Some (a, b) /\\ o = a * b.",
        "pair_product (l : list nat) : nat",
        [Case(([3, 5, 1],), 15), Case(([40, 41, 0, 2],), 1640)],
    ),
    (
        FIRST_TWO + "Definition ordered_pair_spec (l : list nat) (o : bool) : Prop :=\n"
        "  exists a b, first_two l = Some (a, b) /\\ 0 < a /\\ (o = true <-> a < b).",
        "ordered_pair (l : list nat) : bool",
        [Case(([3, 5, 1],), True), Case(([7, 2],), False)],
    ),
]


@pytest.mark.slow
def test_pinned_rung_fixes_natural_witnesses_by_their_equations() -> None:
    assert_all_correct(PINNED_SHAPES)


def test_pinned_rung_names_large_natural_arguments_and_only_those(tmp_path: Path) -> None:
    script = [
        *NAME_NUMERALS_LTAC,
        "From Coq Require Import ZArith List.",
        "Import ListNotations.",
        "Definition P (n m : nat) (l : list nat) (k : nat) : Prop := True.",
        "Goal ~ P 900 5 [700] (Z.to_nat 5999%Z).",
        "coins_name_numerals.",
        "lazymatch goal with",
        "| |- ~ P ?a 5 [700] ?b => is_var a; is_var b; unfold a, b",
        "end.",
        "match goal with |- ~ P 900 5 [700] (Z.to_nat 5999%Z) => idtac end.",
        "Abort.",
        "Goal forall x : nat, P x 63 [] 64.",
        "intro x; coins_name_numerals.",
        "match goal with |- P x 63 [] ?b => is_var b end.",
        "Abort.",
    ]
    (tmp_path / "Named.v").write_text("\n".join(script) + "\n")
    proc = subprocess.run(["coqc", "-q", "Named.v"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr + proc.stdout
