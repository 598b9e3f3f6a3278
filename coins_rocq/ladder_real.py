"""The Ltac of the ladder's ``real-integers`` rung: integers bounded by reals.

A spec over ``R`` that relates integers to reals is out of ``lra``'s reach twice: it cannot
case-split ``Rabs``, and it does not know that no integer lies strictly between two
consecutive ones. Two shapes bring such integers: a quantifier (``forall z : Z, Rabs (r - IZR
res) <= Rabs (r - IZR z)``: ``res`` is a closest integer to ``r``), and an integer defined as
the first component of a sigma type (Coquelicot's ``floor x``, whose ``red`` is ``proj1_sig
(floor_ex x)``): the rung first opens each such term into a variable ``z`` with its property
(``IZR z <= x < IZR z + 1``). The rung collects pivots, the integers around each real constant
of the goal and of its hypotheses (``floor (a / b) - 1`` to ``floor (a / b) + 1`` for ``IZR a /
IZR b``, ``k - 1`` to ``k + 1`` for an ``IZR k`` outside a fraction, none added twice), sorted.
A goal is proved by splitting each integer variable at the pivots in turn (``IZR z <= IZR (p -
1)``, ``z = p``, or ``IZR (p + 1) <= IZR z``, which holds because ``z`` is an integer), then
``split_Rabs`` and ``lra`` on each case. A negated goal is refuted by one instance at a pivot
of a hypothesis ``forall z : Z, ...`` whose premises (real equations, integer disequalities)
are proved and whose conclusion ``split_Rabs`` and ``lra`` refute (``res = 16`` for ``r =
14.5``: at ``z = 15``, ``1.5 <= 0.5``), or, with no such hypothesis, by proving the premises
of its implications and splitting its integer variables as above. The tactics exist only where
the signature uses ``R``; elsewhere ``coins_real_ints`` fails at once, and so it does on a goal
with neither a ``forall`` over ``Z`` nor an integer variable under ``IZR``.
"""

from __future__ import annotations

from coins_rocq.ltac import ltac_sentences

REAL_LTAC: tuple[str, ...] = ltac_sentences("real")
"""The rung's definitions and tactics, sent with the prelude of a signature that uses ``R``."""

NO_REAL_LTAC: tuple[str, ...] = ltac_sentences("no_real")
"""The rung's tactic where the signature has no ``R``: it fails at once."""

LRA_LTAC: tuple[str, ...] = ltac_sentences("lra")
"""``coins_lra`` (closed square roots bounded, then ``lra``) and ``coins_pin_real``, sent first for ``R``."""

NO_LRA_LTAC: tuple[str, ...] = ltac_sentences("no_lra")
"""``coins_lra`` where the signature has no ``R``: it fails at once."""
