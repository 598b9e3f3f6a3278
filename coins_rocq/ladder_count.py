"""The Ltac of the ladder's ``index-set`` rung: a counted set of indices, built and refuted by counting.

A counting spec such as HumanEval/18's ``exists indices, NoDup indices /\\ (forall i, In i
indices -> match_at i ...) /\\ (forall i, i + length s <= length t -> match_at i ... -> In i
indices) /\\ output = length indices`` has, as its witness, the list of every index below a
bound whose premises hold: no unification finds it, and the search's candidates (0..23, the
goal's lists and their slices) do not hold it. ``coins_count`` reads the conjunct ``forall
i : nat, <bound on i> -> ... -> In i l`` of the existential's body (the body is read at
``l := nil``, where the bound variable ``l`` cannot escape), walks the naturals below the
bound (at most 64), and keeps each whose premises the search proves: that list ``M`` is the
witness, and the search proves the body at it. The conjunct may put any image of the index
in the list (``In (lower (nth i s " ")) D``: a count of distinct values, HumanEval/16): ``M``
is then the images, computed, without repeats (``nodup`` with the element type's decidable
equality, ``coins_eq_dec``), and a member of ``M`` is shown to be in ``l`` by the conjunct's
instance at an index below the bound whose image it is.

A refutation (``~ exists l, ...`` with a wrong ``output``) counts: the list ``l`` it assumes
is duplicate-free, so if every member of ``l`` is in ``M`` (each member satisfies the
membership premise, which bounds it), ``length l <= length M``; and if every member of ``M``
is in ``l`` (the completeness conjunct), ``length M <= length l`` (``NoDup_incl_length``,
in the standard library). One of the two contradicts ``output = length l``. A spec of
another shape makes the rung fail at once; a wrong ``M`` makes the proof fail, never a
wrong verdict, and the kernel checks every proof anyway.
"""

from __future__ import annotations

from coins_rocq.ltac import ltac_sentences

COUNT_LTAC: tuple[str, ...] = ltac_sentences("count")
"""The ``index-set`` rung's Ltac, sent with the prelude after the search it calls."""
