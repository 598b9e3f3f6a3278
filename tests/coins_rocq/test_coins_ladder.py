"""The search rung of the automation ladder decides concrete obligations that plain computation cannot."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from coins_shapes import Shape, assert_all_correct

from coins_rocq import LADDER, Case, CoqtopPool, check_specs, parse_signature
from coins_rocq.cli import coins_group

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
    assert_all_correct(SPECS)


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
    assert_all_correct(HUMAN_SHAPES)


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
    assert_all_correct(REFUTATION_SHAPES)


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
    assert_all_correct(WITNESS_SHAPES)


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
    assert_all_correct(SLICE_SHAPES)


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


NONLINEAR_WITNESS_SHAPES: list[Shape] = [
    # A witness in a nonlinear equation (`a = x * x * x`) is not solved for as a linear one
    # (that took seconds per goal): the candidates from the goal's numerals decide it.
    (
        "Definition iscube_spec (a : Z) (b : bool) : Prop := b = true <-> exists x : Z, a = (x * x * x)%Z.",
        "iscube (a : Z) : bool",
        [Case((1,), True), Case((-1,), True), Case((0,), True)],
    ),
]


@pytest.mark.slow
def test_a_witness_in_a_nonlinear_equation_is_found_among_candidates() -> None:
    assert_all_correct(NONLINEAR_WITNESS_SHAPES)


PINNED_WITNESS_SHAPES: list[Shape] = [
    # A natural witness fixed by an equation with a closed side (`parse s = Some y`) is that
    # side's value, computed, however large: the witnesses 0..23 are tried only after it.
    (
        "Import ListNotations.\n"
        "Definition two_digits (a b : ascii) : option nat :=\n"
        "  match (nat_of_ascii a - 48, nat_of_ascii b - 48) with\n"
        "  | (x, y) => if (x <? 10) && (y <? 10) then Some (10 * x + y) else None end.\n"
        "Definition century_spec (s : list ascii) (b : bool) : Prop :=\n"
        "  match s with\n"
        "  | [c1; c2; y1; y2] => b = true <-> exists c y : nat,\n"
        "      two_digits c1 c2 = Some c /\\ two_digits y1 y2 = Some y /\\ 1900 <= 100 * c + y\n"
        "  | _ => b = false end.",
        "century (s : list ascii) : bool",
        [Case(("2024",), True), Case(("1899",), False), Case(("19",), False)],
    ),
]


@pytest.mark.slow
def test_a_natural_witness_fixed_by_an_equation_is_computed() -> None:
    assert_all_correct(PINNED_WITNESS_SHAPES)


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
