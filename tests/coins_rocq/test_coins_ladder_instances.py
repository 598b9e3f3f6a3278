"""Universal hypotheses instantiated where the case's data lives, not at every candidate.

A wrong output is refuted by one instance of the spec's universal claim: the position where
it differs. The instances come from the bound the claim states (``i < k`` or ``i <= k``
with ``k`` a numeral), so the search never computes the claim's body at values far outside
the data (``fact 23`` in unary naturals). The shapes are written here (the upstream specs
carry no licence).
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
]


@pytest.mark.slow
def test_a_claim_over_positions_up_to_a_bound_is_refuted_at_a_position() -> None:
    assert_all_correct(BOUNDED_POSITION_SHAPES)
