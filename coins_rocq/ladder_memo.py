"""The Ltac of the ladder's ``recurrence`` rung: a relation over a natural index, built bottom-up.

A spec such as ``is_fibfib n r`` (an inductive relation whose constructors relate the output
at ``n + 3`` to the outputs at ``n``, ``n + 1`` and ``n + 2``) has proof trees that grow
exponentially with ``n`` when each premise is proved afresh, and its refutations (``~
is_fibfib 12 275``) need every premise's output pinned, again exponentially. ``coins_memo``
walks the index from 0 to the goal's numeral instead: at each ``k`` it proves ``P k v``
(``eassert``: a constructor whose premises are the facts already proved, so Rocq computes
``v``) and, for a refutation, that ``v`` is the only output (``forall x, P k x -> x = v``:
an inversion whose premises the earlier uniqueness facts pin). The goal ``P N v`` is then a
fact; ``~ P N w`` follows from ``P N``'s uniqueness and ``w <> v``. Linear in ``N`` where
the search is exponential; an index with no proof, or a relation that is not functional,
leaves a gap that makes the rung fail, never a wrong verdict.
"""

from __future__ import annotations

from coins_rocq.ltac import ltac_sentences

MEMO_LTAC: tuple[str, ...] = ltac_sentences("memo")
"""The rung's tactics, sent with the prelude after the helpers they call."""
