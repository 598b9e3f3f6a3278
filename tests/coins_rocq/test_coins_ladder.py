"""The automation ladder decides concrete obligations that plain computation cannot."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from coins_rocq import LADDER, Case, CoqtopPool, check_specs, parse_signature
from coins_rocq.cli import coins_group

SPECS = [
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
    with CoqtopPool(2) as pool:
        reports = check_specs([(src, parse_signature(sig), cases) for src, sig, cases in SPECS], pool)
    assert [r.verdict for r in reports] == ["correct"] * len(SPECS), [(r.verdict, r.reason[:80]) for r in reports]


def test_the_ladder_is_printed_in_help() -> None:
    text = CliRunner().invoke(coins_group, ["check", "--help"]).output
    for name, _ in LADDER:
        assert name in text
