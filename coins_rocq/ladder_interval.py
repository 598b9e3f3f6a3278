"""The Ltac of the ladder's ``interval`` rung: a rounded real output read as the interval it stands for.

A completeness obligation whose true output holds a rounded real (``coins_rocq.floats``) has
a second goal, tried when the exact one fails: ``exists r, spec inputs r /\\ coins_within near
r o``, ``near`` bounding the distance to the rounded ``o`` by one unit of its last digit
(``coins_rocq.obligations.interval_goal``). The rung proves it by leaving each unknown to
unification: the search proves ``spec inputs ?r``, which fixes ``?r`` to the value the spec
defines (``mad = expr``), or leaves it to be ``o`` itself; then each bound is closed, by
``lra`` (``Rabs`` split by sign) over ``R``, by computation over ``Q``. Its negation, the
refutation, is the search's on the spec with the bounds unfolded: ``r = 2/3`` with ``|r -
0.666666666667| <= 10^-12`` is consistent, ``r = 1/3`` is not. Goals without
``coins_within`` make the rung fail at once.
"""

from __future__ import annotations

from coins_rocq.ltac import ltac_sentences

INTERVAL_LTAC: tuple[str, ...] = ltac_sentences("interval")
"""The bound's marker ``coins_within`` and the rung's tactics, sent with the prelude after the search."""
