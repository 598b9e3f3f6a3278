"""Permutations of concrete lists, decided by computation, for the search (``coins_rocq.ladder_ltac``).

``Permutation a b`` between literal lists of a type with decidable equality (naturals,
integers, booleans, characters, strings, and lists and pairs of them) is decided by
``coins_perm_b``, which removes each element of ``a`` from ``b`` once and asks that nothing
be left, with two lemmas proved in the prelude: ``coins_perm_b_sound`` (``true`` proves the
permutation, a proof by reflection: one computation instead of a proof term that moves each
element) and ``coins_perm_b_complete`` (a permutation computes ``true``, so a hypothesis
``Permutation a b`` with ``coins_perm_b`` false closes the branch, and a true one carries no
information and is dropped). A goal ``Permutation a (x :: ?r)``, the rest an unknown, is
solved with ``?r`` the list ``a`` without one ``x`` (``coins_remove_one``). A list holding a
variable or an unknown elsewhere is left to the search's other steps.
"""

from __future__ import annotations

from coins_rocq.ltac import ltac_sentences

PERM_LTAC: tuple[str, ...] = ltac_sentences("perm")
"""The decision procedure's functions, lemmas and tactics, sent with the prelude before the search."""
