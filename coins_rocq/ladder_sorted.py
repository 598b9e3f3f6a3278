"""The Ltac of the ladder's ``sorted-permutation`` rung: a sorted rearrangement, built and pinned.

A sorting spec such as HumanEval/105's ``exists s, (Permutation l s /\\ Sorted Z.le s) /\\ o =
map word (rev s)`` has, as its witness, the sorted input: no unification finds it, and the
search's candidates do not hold it. ``coins_sorted`` reads the permuted list ``L`` and the order
``R`` off the existential's body (read at ``s := nil``, where the bound variable cannot
escape); a body with ``Sorted R s`` and no ``Permutation`` (the sorted list pinned by its
members, lengths or the output, HumanEval/47's median) takes as ``L`` the first literal list of
the element type in the body. It computes ``L``, sorts it by insertion (``R a b`` decided on
literals by ``lia`` or the search), and proves the body at the result: each ``Permutation``
between literal lists by moving each element of the left list to the front of the right one
(``Permutation_cons_app``; unlike the search's decision by computation, ``coins_rocq.ladder_perm``,
this needs no decidable equality of the elements, so it also serves lists of reals), the rest by
the search.

A refutation (a wrong ``o``) pins the rearrangement: for an antisymmetric, transitive
``R`` there is one sorted permutation of ``L`` (``coins_sorted_unique``, proved in the
prelude from the standard library's ``Sorted_StronglySorted``), so the assumed ``s`` is the
sorted list and the search refutes the rest at it. A relation that is not antisymmetric
(sorting by a key), not transitive or not decidable on the literals makes the rung fail,
never a wrong verdict; the kernel checks every proof anyway.
"""

from __future__ import annotations

from coins_rocq.ltac import ltac_sentences

SORTED_LTAC: tuple[str, ...] = ltac_sentences("sorted")
"""The ``sorted-permutation`` rung's Ltac and its uniqueness lemma, sent with the prelude after the search."""
