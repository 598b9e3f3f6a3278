"""The Ltac tactics the search (``coins_rocq.ladder_ltac``) builds on, in definition order.

The per-spec binder probe, the leaves, the tests on literal terms (numerals, characters,
booleans, literal lists, closed terms and closed literal propositions) and their proofs and
refutations, the walks over a literal list's prefixes and contiguous slices, enumeration of
bounded naturals and integers, the list-cell size that lets a constructor step or an
inversion over a shrinking literal list spend no depth, the solution of a linear equation
that pins an integer witness, and the instantiation of hypotheses (at a slice only where
the instance's conclusion is false). Each is defined before the tactics that call it; none
of them searches (a walk runs the tactic it is given on each prefix or slice).
"""

from __future__ import annotations

from coins_rocq.ltac import ltac_sentences

HELPER_LTAC: tuple[str, ...] = ltac_sentences("helpers")
"""The helper tactics, sent with the prelude before the search that calls them."""
