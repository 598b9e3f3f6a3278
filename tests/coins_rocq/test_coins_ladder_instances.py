"""Universal hypotheses instantiated where the case's data lives, not at every candidate.

A wrong output is refuted by one instance of the spec's universal claim: the position where
it differs. The instances come from the bound the claim states (``i < k`` or ``i <= k``,
``k`` closed: a numeral or a length computed from the data), so the search never computes
the claim's body at values far outside the data (``fact 23`` in unary naturals). An
instance whose conclusion is a negated existential is refuted alone: its witnesses are fixed
by the lookups that name them. A witness fixed by a top-level equation (``r = i``) is that
value and no other. The shapes are written here (the upstream specs carry no licence).
"""

from __future__ import annotations

import pytest
from coins_shapes import Shape, assert_all_correct

from coins_rocq import Case

BOUNDED_POSITION_SHAPES: list[Shape] = [
    # Positions 1..n, bounded by `i <= n`: a swapped pair is refuted at position 1, not by
    # trying the naturals 0..23 as witnesses, where `fact i` is too large to compute.
    (
        "Require Import Factorial.\n"
        "Definition alternating_spec (n : nat) (l : list nat) : Prop :=\n"
        "  let half := fun i => Nat.div (i * (i + 1)) 2 in\n"
        "  length l = n /\\ forall i, 1 <= i -> i <= n ->\n"
        "    nth_error l (i - 1) = Some (if Nat.even i then fact i else half i).",
        "alternating (n : nat) : list nat",
        [Case((5,), [1, 2, 6, 24, 15]), Case((0,), []), Case((2,), [1, 2])],
    ),
    # The last peak of a list, or 0: a wrong 0 is refuted at the peak's position (bounded by
    # `i < length l - 1`, computed), whose negated existential is refuted by its lookups; the
    # true 0 is not sought among peaks, where `r = i` fixes the witness at 0.
    (
        "Definition peak_at (l : list nat) (i : nat) : Prop := exists a b c,\n"
        "  nth_error l (i - 1) = Some a /\\ nth_error l i = Some b /\\ nth_error l (i + 1) = Some c /\\\n"
        "  a < b /\\ c < b.\n"
        "Definition last_peak_spec (l : list nat) (r : nat) : Prop :=\n"
        "  (exists i, 1 <= i < length l - 1 /\\ peak_at l i /\\ r = i /\\\n"
        "     forall j, i < j < length l - 1 -> ~ peak_at l j)\n"
        "  \\/ ((forall i, 1 <= i < length l - 1 -> ~ peak_at l i) /\\ r = 0).",
        "last_peak (l : list nat) : nat",
        [Case(([1, 3, 2, 5, 4],), 3), Case(([1, 2, 3],), 0), Case(([],), 0), Case(([5, 9, 1],), 1)],
    ),
]


@pytest.mark.slow
def test_a_claim_over_positions_up_to_a_bound_is_refuted_at_a_position() -> None:
    assert_all_correct(BOUNDED_POSITION_SHAPES)


BELOW_SHAPES: list[Shape] = [
    # Completeness over a bound: an output missing 6 is refuted by the instance at 6 of
    # `forall p, ... -> p < n -> In p o`, found among the naturals below the bound (6 is named
    # nowhere in the hypothesis); only instances whose conclusion is false are added.
    (
        "Definition evens_below_spec (n : nat) (o : list nat) : Prop :=\n"
        "  (forall p, In p o -> p < n /\\ p mod 2 = 0) /\\ (forall p, p mod 2 = 0 -> p < n -> In p o) /\\\n"
        "  Sorted Nat.lt o.",
        "evens_below (n : nat) : list nat",
        [Case((7,), [0, 2, 4, 6]), Case((3,), [0, 2])],
    ),
]


@pytest.mark.slow
def test_search_rung_refutes_through_instances_below_a_numeral_bound() -> None:
    assert_all_correct(BELOW_SHAPES)


PAIR_SHAPES: list[Shape] = [
    # Sortedness stated over pairs of indices: a wrong order is refuted only by the instance
    # at one pair (i, j), both below the list's length; neither is named in the hypothesis.
    (
        "From Coq Require Import Sorting.Permutation.\n"
        "Definition sort_by_index_spec (l o : list nat) : Prop :=\n"
        "  Permutation l o /\\ (forall i j, i < j -> j < length o -> nth i o 0 <= nth j o 0).",
        "sort_by_index (l : list nat) : list nat",
        [Case(([5, 3, 9, 1, 4],), [1, 3, 4, 5, 9]), Case(([2, 2, 0],), [0, 2, 2])],
    ),
]


@pytest.mark.slow
def test_search_rung_refutes_through_instances_at_pairs_below_a_numeral_bound() -> None:
    assert_all_correct(PAIR_SHAPES)


DIVISOR_SHAPES: list[Shape] = [
    # A quantifier over divisors: `n mod d = 0` with a literal n puts d among n's divisors,
    # computed (1, 97 for a prime); a hypothesis over all d is refuted at one of them (6 at 2).
    (
        "Definition is_prime_spec (n : nat) (b : bool) : Prop :=\n"
        "  (1 < n /\\ forall d : nat, n mod d = 0 -> d = 1 \\/ d = n) <-> b = true.",
        "is_prime (n : nat) : bool",
        [Case((97,), True), Case((6,), False), Case((1,), False)],
    ),
    (
        "Definition gcd_spec (a b o : Z) : Prop := (a mod o = 0 /\\ b mod o = 0 /\\\n"
        "  forall x : Z, a mod x = 0 -> b mod x = 0 -> x > 0 -> x <= o)%Z.",
        "gcd (a : Z) (b : Z) : Z",
        [Case((144, 60), 12), Case((3, 7), 1)],
    ),
    (
        "Definition is_prime (n : nat) : Prop := 1 < n /\\ (forall d : nat, n mod d = 0 -> d = 1 \\/ d = n).\n"
        "Definition factors_spec (n : nat) (o : list nat) : Prop :=\n"
        "  Sorted le o /\\ fold_right Nat.mul 1 o = n /\\ Forall is_prime o.",
        "factors (n : nat) : list nat",
        [Case((70,), [2, 5, 7]), Case((8,), [2, 2, 2])],
    ),
]


@pytest.mark.slow
def test_quantifiers_over_divisors_of_a_literal_range_over_its_computed_divisors() -> None:
    assert_all_correct(DIVISOR_SHAPES)


LARGE_DIVISOR_SHAPES: list[Shape] = [
    # Divisors of a natural above the unary rendering bound (written `Z.to_nat 13441%Z`) and of
    # larger integers: computed over binary numbers, where a unary range costs time quadratic in
    # the number (5.6 s for 13441, past the per-goal limit). A composite that large is not yet
    # refuted: the search spends the limit before it instantiates at the divisors.
    (
        "Definition is_prime_spec (n : nat) (b : bool) : Prop :=\n"
        "  (1 < n /\\ forall d : nat, n mod d = 0 -> d = 1 \\/ d = n) <-> b = true.",
        "is_prime (n : nat) : bool",
        [Case((13441,), True), Case((8,), False)],
    ),
    (
        "Definition gcd_spec (a b o : Z) : Prop := (a mod o = 0 /\\ b mod o = 0 /\\\n"
        "  forall x : Z, a mod x = 0 -> b mod x = 0 -> x > 0 -> x <= o)%Z.",
        "gcd (a : Z) (b : Z) : Z",
        [Case((30030, 46189), 143)],
    ),
]


@pytest.mark.slow
def test_divisors_of_large_numbers_are_computed_in_binary() -> None:
    assert_all_correct(LARGE_DIVISOR_SHAPES)


OPEN_WITNESS_SHAPES: list[Shape] = [
    # "No element is a multiple of 3" refuted at 3 (3 = 3 * 1); the search also opens the
    # instance at 5, whose witness no step fixes, and closes it by that contradiction: the
    # open witness is then filled with any value (0), and the kernel checks the whole proof.
    # The spec is a match on the output: its None branch is a universal claim only once the
    # match is simplified, and the search then introduces its variables as usual.
    (
        "Definition is_triple (n : nat) : Prop := exists k, n = 3 * k.\n"
        "Definition least_triple_spec (l : list nat) (o : option nat) : Prop :=\n"
        "  match o with\n"
        "  | None => forall v, In v l -> ~ is_triple v\n"
        "  | Some v => In v l /\\ is_triple v /\\ (forall w, In w l -> is_triple w -> v <= w)\n"
        "  end.",
        "least_triple (l : list nat) : option nat",
        [Case(([5, 3, 4],), 3), Case(([4, 5],), None)],
    ),
]


@pytest.mark.slow
def test_a_witness_left_open_by_a_closed_branch_is_filled() -> None:
    assert_all_correct(OPEN_WITNESS_SHAPES)


INDEX_SHAPES: list[Shape] = [
    # An index read with nth_error from a literal list is below its length: `nth_error o j =
    # Some v` bounds j, which is then enumerated; a wrong element is refuted at its index.
    (
        "Definition incr_spec (l o : list Z) : Prop := length o = length l /\\\n"
        "  forall (j : nat) (v : Z), nth_error o j = Some v -> nth_error l j = Some (v - 1)%Z.",
        "incr (l : list Z) : list Z",
        [Case(([1, 2, 3],), [2, 3, 4]), Case(([],), [])],
    ),
]


@pytest.mark.slow
def test_an_index_read_from_a_literal_list_is_bounded_by_its_length() -> None:
    assert_all_correct(INDEX_SHAPES)


WINDOW_SHAPES: list[Shape] = [
    # An index bounded by `i + 2 < n` is enumerated, and a window whose three characters are
    # not pairwise distinct refutes the universal at its index: the instance's conclusion, a
    # conjunction of disequalities, is refuted conjunct by conjunct.
    (
        "Definition distinct_triples_spec (s : list ascii) (b : bool) : Prop :=\n"
        "  b = true <-> (3 <= length s /\\ forall i : nat, i + 2 < length s ->\n"
        '    let x := nth i s " "%char in let y := nth (i + 1) s " "%char in let z := nth (i + 2) s " "%char in\n'
        "    x <> y /\\ x <> z /\\ y <> z).",
        "distinct_triples (s : list ascii) : bool",
        [Case(("abcd",), True), Case(("abca",), True), Case(("aabb",), False), Case(("xyx",), False)],
    ),
]


@pytest.mark.slow
def test_windows_bounded_by_a_sum_are_enumerated_and_refuted_conjunct_by_conjunct() -> None:
    assert_all_correct(WINDOW_SHAPES)


MEMBERSHIP_IFF_SHAPES: list[Shape] = [
    # Membership defined by an iff: a dropped element is refuted at its own instance, whose
    # right side holds (each conjunct a literal fact or a parity) and whose left side is false.
    (
        "Definition odds_between_spec (a b : nat) (l : list nat) : Prop :=\n"
        "  (forall d : nat, In d l <-> (a <= d /\\ d < b /\\ Nat.Odd d)) /\\ Sorted lt l.",
        "odds_between (a : nat) (b : nat) : list nat",
        [Case((3, 9), [3, 5, 7]), Case((4, 5), [])],
    ),
]


@pytest.mark.slow
def test_a_membership_iff_is_refuted_at_the_missing_element() -> None:
    assert_all_correct(MEMBERSHIP_IFF_SHAPES)


INDEX_LOOKUP_SHAPES: list[Shape] = [
    # Elements described through `nth_error` lookups on both lists: an index witness
    # (`exists i, nth_error l i = Some v`) is found among the positions where the literal list
    # holds the value, after the bounded indices of the hypotheses are split; a wrong order is
    # refuted by the instance at a pair of indices, an extra element by an existential
    # conclusion refuted alone (no index of the input holds it).
    (
        "Definition positives_spec (l : list Z) (r : list Z) : Prop :=\n"
        "  (forall j v, nth_error r j = Some v -> exists i, nth_error l i = Some v /\\ (0 < v)%Z) /\\\n"
        "  (forall j1 j2 v1 v2, nth_error r j1 = Some v1 -> nth_error r j2 = Some v2 -> (j1 < j2)%nat ->\n"
        "     exists i1 i2, nth_error l i1 = Some v1 /\\ nth_error l i2 = Some v2 /\\ (i1 < i2)%nat) /\\\n"
        "  length r = length (filter (fun x => Z.ltb 0 x) l).",
        "positives (l : list Z) : list Z",
        [Case(([1, -2, 3, 4],), [1, 3, 4]), Case(([],), []), Case(([5, -1, 7],), [5, 7])],
    ),
    # Elements that occur once, in order: a repeated element is kept out by the instance of
    # the uniqueness premise at its other index.
    (
        "Definition singles_spec (l : list nat) (r : list nat) : Prop :=\n"
        "  (forall i v, nth_error l i = Some v -> (forall k, nth_error l k = Some v -> k = i) -> In v r) /\\\n"
        "  (forall j v, nth_error r j = Some v -> exists i, nth_error l i = Some v /\\\n"
        "     (forall k, nth_error l k = Some v -> k = i)) /\\\n"
        "  (forall j1 j2 v1 v2, nth_error r j1 = Some v1 -> nth_error r j2 = Some v2 -> j1 < j2 ->\n"
        "     exists i1 i2, nth_error l i1 = Some v1 /\\ nth_error l i2 = Some v2 /\\ i1 < i2).",
        "singles (l : list nat) : list nat",
        [Case(([1, 2, 3, 2, 4],), [1, 3, 4]), Case(([],), []), Case(([6, 6, 7],), [7])],
    ),
]


@pytest.mark.slow
def test_index_witnesses_are_read_from_the_positions_of_a_literal_list() -> None:
    assert_all_correct(INDEX_LOOKUP_SHAPES)
