"""Minimality claims over lists: "no shorter list has the property", decided by the search.

A spec that names its output as the shortest list with a property says so with a universal
claim, ``forall p, P p -> length r <= length p``. Proving it for the true output splits the
unknown list into its short shapes (each with its elements as variables) and checks the
property fails on each; refuting a longer wrong output takes the instance at the empty list,
which no literal of the goal names. The shapes are written here (the upstream specs carry
no licence).
"""

from __future__ import annotations

import pytest
from coins_shapes import Shape, assert_all_correct, verdicts

from coins_rocq import Case

END_PALINDROME = (
    "Definition end_palindrome_spec (l : list nat) (r : list nat) : Prop :=\n"
    "  (exists t, r = t ++ l) /\\ r = rev r /\\\n"
    "  forall p, (exists t, p = t ++ l) /\\ p = rev p -> length r <= length p."
)
"""The shortest palindrome that ends with ``l``: the unknown prefix ``t`` of a shorter one is split by length."""
END_PALINDROME_SIG = "end_palindrome (l : list nat) : list nat"
END_PALINDROME_CASES = [
    Case(([],), []),
    Case(([1, 2],), [2, 1, 2]),
    Case(([1, 2, 1],), [1, 2, 1]),
    Case(([3, 3, 4],), [4, 3, 3, 4]),
]

MINIMAL_SHAPES: list[Shape] = [
    (END_PALINDROME, END_PALINDROME_SIG, END_PALINDROME_CASES),
    # Padding with zeros to a length divisible by three: a shorter extension fails the
    # divisibility on each of its shapes.
    (
        "Definition pad3_spec (l : list nat) (r : list nat) : Prop :=\n"
        "  (exists t, r = l ++ t /\\ Forall (fun x => x = 0) t) /\\ Nat.modulo (length r) 3 = 0 /\\\n"
        "  forall p, (exists t, p = l ++ t) /\\ Nat.modulo (length p) 3 = 0 -> length r <= length p.",
        "pad3 (l : list nat) : list nat",
        [
            Case(([],), []),
            Case(([1],), [1, 0, 0]),
            Case(([1, 2, 3],), [1, 2, 3]),
            Case(([5, 5, 5, 5],), [5, 5, 5, 5, 0, 0]),
        ],
    ),
]

WRONG_MINIMAL_SHAPES: list[Shape] = [
    # Strictly shorter than every palindrome, itself included: refuted at the empty list.
    (END_PALINDROME.replace("length r <= length p", "length r < length p"), END_PALINDROME_SIG, END_PALINDROME_CASES),
    # No minimality at all: a longer palindrome is accepted.
    (END_PALINDROME.split(" /\\\n  forall")[0] + ".", END_PALINDROME_SIG, END_PALINDROME_CASES),
]


@pytest.mark.slow
def test_a_minimality_claim_over_lists_is_proved_by_splitting_the_shorter_lists() -> None:
    assert_all_correct(MINIMAL_SHAPES)


@pytest.mark.slow
def test_a_wrong_minimality_claim_is_judged_wrong_both_ways() -> None:
    assert verdicts(WRONG_MINIMAL_SHAPES) == ["too_strong", "too_weak"]
