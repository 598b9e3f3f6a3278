"""The search rung of the automation ladder decides concrete obligations that plain computation cannot."""

from __future__ import annotations

import pytest
from click.testing import CliRunner
from coins_shapes import Shape, assert_all_correct

from coins_rocq import LADDER, Case
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
