"""The Ltac of the ladder's ``pinned`` rung: natural witnesses fixed by their own equations.

A spec such as HumanEval/156's ``exists m c x i rm rc rx ri, n = 1000 * m + ... /\\ m = n /
1000 /\\ ... /\\ digit_spec c rc /\\ ... /\\ r = rm ++ rc ++ rx ++ ri`` names each natural
witness by an equation with a closed side. The search tries the naturals 0..23 at each
level (24⁴ here) and ``simpl`` unfolds ``1000 * m`` into a thousand terms while ``m`` is
unknown. ``coins_pinned`` opens every conjunction and existential with evars, solves each
goal ``?e = t`` (``t`` closed and evar-free) by computing ``t``, and only then proves the
remaining goals in order by the search, the other witnesses now fixed by unification. A
refutation destructs the hypothesis, substitutes each variable equal to a closed term,
and splits the disjunctions one at a time, closing each branch whose closed natural
equation computes false (``vm_compute``), before the search. The rung starts only when the
first natural witness is pinned (or, refuting, some variable equals a closed term), and
fails otherwise; the kernel checks every proof. A witness inside a structured value is
pinned the same way: a goal ``t = p`` (or ``p = t``) with ``t`` closed and ``p`` a
constructor pattern over evars (HumanEval/144's ``parse_fraction x = Some (nx, dx)``) is
solved by computing ``t`` and unifying; refuting, such a hypothesis over variables is
computed and injected (``injection``), or discriminated when the constructors differ.

Before the spec is unfolded, ``coins_name_numerals`` names each natural argument of the goal of at least
64 (``set (coins_k := 900)``): numerals are unary, so every tactic
that traverses the goal (``destruct``, ``eexists``, ``set``, the kernel at ``Qed``) pays
for each copy of ``900`` in proportion to its size; a local definition is one variable,
unfolded only where a computation needs its value (HumanEval/156's obligations, twice as
fast).
"""

from __future__ import annotations

from coins_rocq.ltac import ltac_sentences

NAME_NUMERALS_LTAC: tuple[str, ...] = ltac_sentences("name_numerals")
"""``coins_name_numerals``: each natural argument of the goal's head (under ``~``) that is not a
variable and computes to 64 or more becomes a local definition."""

PINNED_LTAC: tuple[str, ...] = (*NAME_NUMERALS_LTAC, *ltac_sentences("pinned"))
"""The ``pinned`` rung's Ltac, sent with the prelude after the search it calls."""
