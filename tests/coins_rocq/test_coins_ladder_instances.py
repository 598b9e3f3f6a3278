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
