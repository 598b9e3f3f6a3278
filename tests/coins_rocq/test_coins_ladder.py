"""The automation ladder decides concrete obligations that plain computation cannot."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from click.testing import CliRunner

from coins_rocq import LADDER, Case, CoqtopPool, check_specs, parse_signature
from coins_rocq.cli import coins_group

Shape = tuple[str, str, list[Case]]


def _judged(shapes: list[Shape]) -> tuple[list[str], Sequence[tuple[str, Sequence[tuple[str, str]]]]]:
    """Each shape's verdict, and (for a failure message) its first two obligations not proved."""
    with CoqtopPool(2) as pool:
        reports = check_specs([(src, parse_signature(sig), cases) for src, sig, cases in shapes], pool)
    unproved = [
        (r.verdict, [(x.obligation.goal[:90], x.outcome) for x in r.results if x.outcome != "proved"][:2])
        for r in reports
    ]
    return [str(r.verdict) for r in reports], unproved


SPECS: list[Shape] = [
    # The example: a Forall over a concrete list refutes the wrong output 2 for [1;2;3].
    (
        "Definition max_element_spec (l : list Z) (o : Z) : Prop := In o l /\\ Forall (fun x => (x <= o)%Z) l.",
        "max_element (l : list Z) : Z",
        [Case(([1, 2, 3],), 3), Case(([5, 3, -5, 2],), 5)],
    ),
    (
        "Definition incr_list_spec (l o : list Z) : Prop := length l = length o /\\\n"
        "  forall i : nat, (i < length o)%nat -> nth i o 0%Z = (nth i l 0 + 1)%Z.",
        "incr_list (l : list Z) : list Z",
        [Case(([1, 2, 3],), [2, 3, 4]), Case(([],), [])],
    ),
    (
        "Definition is_sorted_spec (l : list nat) (b : bool) : Prop := Sorted Nat.lt l <-> b = true.",
        "is_sorted (l : list nat) : bool",
        [Case(([5],), True), Case(([1, 3, 2],), False)],
    ),
    (
        "Definition is_palindrome_spec (s : string) (b : bool) : Prop := b = true <-> (forall i : nat,\n"
        "  (i < String.length s / 2)%nat -> String.get i s = String.get (String.length s - 1 - i) s).",
        "is_palindrome (s : string) : bool",
        [Case(("aba",), True), Case(("ab",), False)],
    ),
    (
        "Definition max_all_spec (l : list Z) (o : Z) : Prop := In o l /\\ (forall x, In x l -> (x <= o)%Z).",
        "max_all (l : list Z) : Z",
        [Case(([1, 2, 3],), 3)],
    ),
]


@pytest.mark.slow
def test_search_rung_decides_forall_in_sorted_and_bounded_goals() -> None:
    verdicts, unproved = _judged(SPECS)
    assert verdicts == ["correct"] * len(SPECS), unproved


HUMAN_SHAPES: list[Shape] = [
    # A witness split of a concrete list (exists p q, s = p ++ "." :: q), refuted by peeling the
    # list, with nat_of_ascii of a literal evaluated; the true disjunct is found without trying
    # a disjunct whose equation on the output is false.
    (
        'Definition txt_name (s : list ascii) : Prop := exists p q, s = p ++ "."%char :: q /\\\n'
        '  ~ In "."%char p /\\ (exists c r, p = c :: r /\\ (97 <= nat_of_ascii c <= 122)%nat) /\\\n'
        '  q = ("t" :: "x" :: "t" :: nil)%char.\n'
        "Definition check_spec (s : list ascii) (b : bool) : Prop :=\n"
        "  (txt_name s /\\ b = true) \\/ (~ txt_name s /\\ b = false).",
        "check (s : list ascii) : bool",
        [Case(("ab.txt",), True), Case(("1a.txt",), False), Case(("abc",), False), Case(("ab.exe",), False)],
    ),
    # An inductive relation whose constructor sums its outputs: proved through an equation on
    # the numeral, refuted by inverting the hypotheses whose arguments are literals.
    (
        "Inductive fib_at : nat -> nat -> Prop :=\n"
        "| fib0 : fib_at 0 0 | fib1 : fib_at 1 1\n"
        "| fibS : forall n a b, fib_at n a -> fib_at (S n) b -> fib_at (S (S n)) (a + b).\n"
        "Definition fib_spec (n r : nat) : Prop := fib_at n r.",
        "fib (n : nat) : nat",
        [Case((5,), 5), Case((7,), 13)],
    ),
    # Membership in one literal list implies membership in another: the hypothesis' cases are
    # split before any disjunct of the goal is chosen.
    (
        "Definition same_chars_spec (a b : list ascii) (o : bool) : Prop :=\n"
        "  o = true <-> (forall c, In c a <-> In c b).",
        "same_chars (a : list ascii) (b : list ascii) : bool",
        [Case(("abcd", "dddabc"), True), Case(("dcba", "abcddd"), True)],
    ),
]


@pytest.mark.slow
def test_search_rung_decides_list_splits_summed_inductives_and_membership() -> None:
    verdicts, unproved = _judged(HUMAN_SHAPES)
    assert verdicts == ["correct"] * len(HUMAN_SHAPES), unproved


def test_the_ladder_is_printed_in_help() -> None:
    text = CliRunner().invoke(coins_group, ["check", "--help"]).output
    for name, _ in LADDER:
        assert name in text


REFUTATION_SHAPES: list[Shape] = [
    # Sets of characters that differ: the hypothesis `forall c, In c a <-> In c b` is
    # instantiated with every character it names, and each closed instance decided at once.
    (
        "Definition same_set_spec (a b : list ascii) (o : bool) : Prop :=\n"
        "  o = true <-> (forall c, In c a <-> In c b).",
        "same_set (a : list ascii) (b : list ascii) : bool",
        [Case(("eabcd", "dddabc"), False), Case(("abcd", "dddabcf"), False), Case(("ab", "ba"), True)],
    ),
    # A second smallest element: refuting a wrong one needs the minimum's cases, then two
    # instances of a `forall y, In y l -> ...` hypothesis together.
    (
        "Definition second_spec (l : list Z) (o : option Z) : Prop :=\n"
        "  match o with\n"
        "  | Some z => exists m, In m l /\\ (forall x, In x l -> (m <= x)%Z) /\\ In z l /\\ (m < z)%Z /\\\n"
        "      (forall y, In y l -> (m < y)%Z -> (z <= y)%Z)\n"
        "  | None => forall x y, In x l -> In y l -> x = y\n"
        "  end.",
        "second (l : list Z) : option Z",
        [Case(([1, 2, 3, 4, 5],), 2), Case(([5, 1, 4, 3, 2],), 2), Case(([1, 1],), None)],
    ),
    # A range with and without a multiple of 3: the positive premise (one witness) is tried
    # before the negated one (an exhaustive refutation).
    (
        "Definition top_multiple_spec (x y r : Z) : Prop :=\n"
        "  ((exists z, (x <= z <= y)%Z /\\ (z mod 3 = 0)%Z) ->\n"
        "     (r mod 3 = 0)%Z /\\ (x <= r <= y)%Z /\\ forall z, (r < z <= y)%Z -> (z mod 3 <> 0)%Z) /\\\n"
        "  (~ (exists z, (x <= z <= y)%Z /\\ (z mod 3 = 0)%Z) -> r = (-1)%Z).",
        "top_multiple (x : Z) (y : Z) : Z",
        [Case((3, 29), 27), Case((10, 11), -1), Case((6, 25), 24)],
    ),
    # Sums of positive evens refuted by lia: simpl must leave `2 * k` as it is (not expose
    # Z.mul's match on k, which lia cannot read).
    (
        "Definition positive_even (e : Z) : Prop := exists k, e = (2 * k)%Z /\\ (k > 0)%Z.\n"
        "Definition two_evens_spec (n : Z) (b : bool) : Prop :=\n"
        "  b = true <-> exists e1 e2, positive_even e1 /\\ positive_even e2 /\\ n = (e1 + e2)%Z.",
        "two_evens (n : Z) : bool",
        [Case((3,), False), Case((2,), False), Case((7,), False)],
    ),
]


@pytest.mark.slow
def test_search_rung_refutes_through_instances_literal_premises_and_positive_premises_first() -> None:
    verdicts, unproved = _judged(REFUTATION_SHAPES)
    assert verdicts == ["correct"] * len(REFUTATION_SHAPES), unproved


WITNESS_SHAPES: list[Shape] = [
    # A subsequence of a 14-element list: the constructor steps that walk the literal lists
    # (each premise's lists shorter than the goal's) spend no depth, so the walk is not cut
    # at the search's depth 12.
    (
        "Inductive subseq : list Z -> list Z -> Prop :=\n"
        "  | sub_nil : subseq nil nil\n"
        "  | sub_hd : forall x l1 l2, subseq l1 l2 -> subseq (x :: l1) (x :: l2)\n"
        "  | sub_tl : forall x l1 l2, subseq l1 l2 -> subseq l1 (x :: l2).\n"
        "Definition positives_spec (l o : list Z) : Prop :=\n"
        "  subseq o l /\\ (forall x, In x o <-> In x l /\\ (x > 0)%Z).",
        "positives (l : list Z) : list Z",
        [Case(([5, 3, -5, 2, -3, 3, 9, 0, 123, 1, -10, 4, -1, 7],), [5, 3, 2, 3, 9, 123, 1, 4, 7])],
    ),
    # Real witnesses named only by equations (`In` simplified to `12 = m \/ ...`), each
    # candidate once, and a list equation taken apart element by element for `lra`.
    (
        "Definition rescale_spec (l o : list R) : Prop :=\n"
        "  exists lo hi, (In lo l /\\ forall x, In x l -> (lo <= x)%R) /\\\n"
        "    (In hi l /\\ forall x, In x l -> (x <= hi)%R) /\\\n"
        "    o = map (fun x => ((x - lo) / (hi - lo))%R) l.",
        "rescale (l : list R) : list R",
        [Case(([12.0, 11.0, 15.0, 13.0, 14.0],), [0.25, 0.0, 1.0, 0.5, 0.75]), Case(([2.0, 49.9],), [0.0, 1.0])],
    ),
    # A sum of four positive evens: the last summand is no numeral of the goal (16 = 2+2+2+10);
    # an integer witness an equation of the goal pins (here `16 = 2 + 2 + 2 + e4`, then
    # `10 = 2 * k`) is solved for.
    (
        "Definition positive_even (e : Z) : Prop := exists k, e = (2 * k)%Z /\\ (k > 0)%Z.\n"
        "Definition four_evens_spec (n : Z) (b : bool) : Prop :=\n"
        "  b = true <-> exists e1 e2 e3 e4, positive_even e1 /\\ positive_even e2 /\\ positive_even e3 /\\\n"
        "    positive_even e4 /\\ n = (e1 + e2 + e3 + e4)%Z.",
        "four_evens (n : Z) : bool",
        [Case((16,), True), Case((10,), True), Case((6,), False), Case((11,), False)],
    ),
    # Refuting `false` for a decreasing list: the premise `increasing l \/ decreasing l` of the
    # hypothesis `... -> false = true` is proved without that hypothesis (using it would mean
    # proving the premise again), so the search does not recurse through it.
    (
        "Inductive increasing : list Z -> Prop :=\n"
        "  | inc_nil : increasing nil\n"
        "  | inc_one : forall x, increasing (x :: nil)\n"
        "  | inc_cons : forall x y l, (x <= y)%Z -> increasing (y :: l) -> increasing (x :: y :: l).\n"
        "Inductive decreasing : list Z -> Prop :=\n"
        "  | dec_nil : decreasing nil\n"
        "  | dec_one : forall x, decreasing (x :: nil)\n"
        "  | dec_cons : forall x y l, (y <= x)%Z -> decreasing (y :: l) -> decreasing (x :: y :: l).\n"
        "Definition monotone_spec (l : list Z) (b : bool) : Prop := b = true <-> (increasing l \\/ decreasing l).",
        "monotone (l : list Z) : bool",
        [Case(([4, 1, 0, -10],), True), Case(([1, 2, 4, 20],), True), Case(([1, 20, 4, 10],), False)],
    ),
]


@pytest.mark.slow
def test_search_rung_walks_long_lists_pins_witnesses_and_proves_premises_without_their_hypothesis() -> None:
    verdicts, unproved = _judged(WITNESS_SHAPES)
    assert verdicts == ["correct"] * len(WITNESS_SHAPES), unproved


SLICE_SHAPES: list[Shape] = [
    # Index witnesses: `exists j, j < length l /\ j mod 2 = 0 /\ ...` for every even i of an
    # 11-element list. A candidate j whose simplified goal holds an equation discriminate
    # refutes (`1 = 0`, `5%Z = 2%Z`) is skipped without a search, and the closed premise
    # `i mod 2 <> 0` of each instance is decided at once, so each obligation fits its timeout.
    (
        "Definition sort_even_spec (l o : list Z) : Prop :=\n"
        "  length o = length l /\\\n"
        "  (forall i : nat, (i < length l)%nat -> i mod 2 <> 0 -> nth i o 0%Z = nth i l 0%Z) /\\\n"
        "  (forall i : nat, (i < length o)%nat -> i mod 2 = 0 ->\n"
        "     exists j : nat, (j < length l)%nat /\\ j mod 2 = 0 /\\ nth j l 0%Z = nth i o 0%Z) /\\\n"
        "  (forall i : nat, (i < length l)%nat -> i mod 2 = 0 ->\n"
        "     exists j : nat, (j < length o)%nat /\\ j mod 2 = 0 /\\ nth j o 0%Z = nth i l 0%Z) /\\\n"
        "  (forall i j : nat, (i < j < length o)%nat -> i mod 2 = 0 -> j mod 2 = 0 ->\n"
        "     (nth i o 0 <= nth j o 0)%Z).",
        "sort_even (l : list Z) : list Z",
        [
            Case(([5, 6, 3, 4],), [3, 6, 5, 4]),
            Case(([5, 3, -5, 2, -3, 3, 9, 0, 123, 1, -10],), [-10, 3, -5, 2, -3, 3, 5, 0, 9, 1, 123]),
        ],
    ),
    # A maximum over contiguous sub-lists: the witness [2; 2] is no prefix but a slice, and a
    # too small output is refuted by the one instance of the bound at a slice whose
    # conclusion is false (the others are not added).
    (
        "Definition total (l : list Z) : Z := fold_right Z.add 0%Z l.\n"
        "Definition max_run_spec (l : list Z) (o : Z) : Prop :=\n"
        "  (exists m, m <> nil /\\ (exists p s, l = p ++ m ++ s) /\\ total m = o) /\\\n"
        "  (forall m, m <> nil -> (exists p s, l = p ++ m ++ s) -> (total m <= o)%Z).",
        "max_run (l : list Z) : Z",
        [Case(([1, -3, 2, 2, -1],), 4), Case(([-2, -1],), -1), Case(([3, -1, 2],), 4)],
    ),
]


@pytest.mark.slow
def test_search_rung_skips_hopeless_index_witnesses_and_instantiates_at_slices() -> None:
    verdicts, unproved = _judged(SLICE_SHAPES)
    assert verdicts == ["correct"] * len(SLICE_SHAPES), unproved


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
    verdicts, unproved = _judged(RECURRENCE_SHAPES)
    assert verdicts == ["correct"] * len(RECURRENCE_SHAPES), unproved


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
]


@pytest.mark.slow
def test_real_integers_rung_splits_integers_around_the_reals_of_the_goal() -> None:
    verdicts, unproved = _judged(REAL_INTEGER_SHAPES)
    assert verdicts == ["correct"] * len(REAL_INTEGER_SHAPES), unproved


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
    verdicts, unproved = _judged(BELOW_SHAPES)
    assert verdicts == ["correct"] * len(BELOW_SHAPES), unproved


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
]


@pytest.mark.slow
def test_index_set_rung_builds_a_filtered_range_and_refutes_wrong_counts_by_counting() -> None:
    verdicts, unproved = _judged(INDEX_SET_SHAPES)
    assert verdicts == ["correct"] * len(INDEX_SET_SHAPES), unproved


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
]


@pytest.mark.slow
def test_sorted_permutation_rung_sorts_the_witness_and_pins_the_rearrangement() -> None:
    verdicts, unproved = _judged(SORTED_PERMUTATION_SHAPES)
    assert verdicts == ["correct"] * len(SORTED_PERMUTATION_SHAPES), unproved


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
]


@pytest.mark.slow
def test_pinned_rung_fixes_natural_witnesses_by_their_equations() -> None:
    verdicts, unproved = _judged(PINNED_SHAPES)
    assert verdicts == ["correct"] * len(PINNED_SHAPES), unproved
