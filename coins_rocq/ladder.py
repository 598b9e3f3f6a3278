"""The automation ladder: fixed, auditable tactics tried on every obligation, cheapest first.

Each rung is one tactic; the ladder runs them in order, each under the per-goal
``timeout`` (and the whole ladder under it too), until one closes the goal (``solve``).
``{unfold}`` is ``cbv beta delta [...]`` over the spec's ``Definition``s. The ``search``
rung is ``coins_crush``, a bounded depth-first search in plain Ltac
(``coins_rocq.ladder_ltac``). Axioms stay audited: every proof is followed by ``Print Assumptions``.
"""

from __future__ import annotations

import re

LADDER: tuple[tuple[str, str], ...] = (
    ("interval", "{unfold}; coins_interval"),
    (
        "compute-decide",
        "lazymatch eval cbv delta [coins_data_binders] in coins_data_binders with false =>"
        " coins_readable_nats; vm_compute; intros;"
        " first [reflexivity | exact I | discriminate | contradiction | intuition (try discriminate; try congruence)]"
        " end",
    ),
    ("unfold-leb", "{unfold}; repeat split; first [apply Nat.leb_le | apply Nat.ltb_lt]; vm_compute; reflexivity"),
    ("pinned", "coins_name_numerals; {unfold}; coins_pinned"),
    (
        "simpl-constructor",
        "cbn; repeat first [discriminate | coins_nat_compare | coins_constructor]",
    ),
    ("unfold-lia", "{unfold}; intros; lia"),
    ("unfold-lra", "{unfold}; intros; coins_lra"),
    ("real-integers", "{unfold}; coins_real_ints"),
    ("recurrence", "{unfold}; coins_memo"),
    ("index-set", "{unfold}; coins_count"),
    ("sorted-permutation", "{unfold}; coins_sorted"),
    ("search", "{unfold}; coins_crush"),
)
"""The rungs, cheapest first: (name, tactic). ``interval`` (``coins_rocq.ladder_interval``) fails
at once on every goal but the interval reading of a rounded real output, which no other rung
reads; it comes first so that the others do not spend the timeout on it. Rungs whose proofs have small dependency
sets come first, because ``Print Assumptions`` walks every dependency; the first rung
computes the goal once and then tries every cheap way to close it, unless the spec,
unfolded, quantifies over data (a ``forall`` or ``exists`` over a type that is not a
proposition): ``vm_compute`` then normalises under the binder, where functions are stuck
on a variable (``nat_of_ascii c`` unfolds to a match on eight bits, then unary
arithmetic), and could spend the whole per-goal timeout on a goal no computation
decides. Nor does it compute a goal holding a natural above 30000
(``coins_readable_nats``): ``vm_compute`` reads such a unary number back recursively and
overflows the stack, an error no tactic catches, which would end the ladder before any
other rung ran. Whether it does is decided once per spec, when it is loaded: ``coins_data_binders``
(``probe_definition``) is ``true`` when the first obligation, its definitions unfolded,
holds such a binder (``coins_binder_in``: a product whose own type is ``Prop``; function
types such as a ``Fixpoint``'s ``nat -> nat`` are not quantifiers). Every obligation of a
spec has the same shape with other values, and values hold no binders. ``coins_lra`` is
``lra`` only when the signature uses ``R`` (else it fails at once), so the linear-real
rung sits with the other cheap decision procedures, before the search: the whole ladder
shares one per-goal timeout, and a real-arithmetic goal must not wait behind it. Before
``lra`` runs, each square root of a closed term is bounded by two rationals (equal for a
rational square; ``coins_rocq/ltac/lra.v``), and the search solves an integer witness of a
real equation (``r = IZR ?z / 100``) instead of guessing it (``coins_pin_real``).
``unfold-leb`` decides comparisons of natural literals (a precondition's ``N <= 10000``)
by ``Nat.leb``/``Nat.ltb``: ``lia`` and the constructors of ``le`` are slow on unary numbers
that large; ``simpl-constructor`` does the same for each comparison of closed naturals it meets
among the constructors (``coins_nat_compare``; one holding an unknown is left to them), and
never applies a constructor to one it found false (``coins_constructor``):
``Forall (fun n => n > 0) [15; 1422]`` by ``le_S`` 1421 times would spend the whole ladder's
timeout, and the search after it would never run; so would ``le_S`` down to 0 on each false
comparison of a disjunction it cannot choose (a precondition "``65 <= nat_of_ascii c <= 90``
or ..." over each character of a 32-character string). ``real-integers``
(``coins_rocq.ladder_real``), ``recurrence`` (``coins_rocq.ladder_memo``),
``index-set`` (``coins_rocq.ladder_count``) and ``sorted-permutation``
(``coins_rocq.ladder_sorted``) come before the search, which would spend the
whole per-goal timeout on the goals they decide (case splits of ``Rabs`` without the
integers between, recurrences whose premise-by-premise proofs grow exponentially, counts
whose witness is a filtered range of indices and whose refutations need a counting
argument, and sorted rearrangements, whose witness is the sorted input and whose
refutations need its uniqueness); each fails at once on a goal of another shape. ``pinned``
(``coins_rocq.ladder_pinned``) comes before ``simpl-constructor``, whose ``cbn`` unfolds
``1000 * m`` under the binder of ``exists m : nat`` and spends the quick pass's second on
the goals it decides (natural witnesses named by their own equations); it starts only
when such an equation is there."""


def describe_ladder() -> str:
    """The ladder as numbered lines, for ``--help``."""
    return "\n".join(f"{i}. {name}: {tactic}" for i, (name, tactic) in enumerate(LADDER, 1))


def probe_definition(definitions: tuple[str, ...], module: str, statement: str) -> str:
    """The setup sentence defining ``coins_data_binders``: does ``statement``, unfolded, quantify over data?"""
    return (
        f"Definition coins_data_binders : Coq.Init.Datatypes.bool := ltac:(let g := eval {_unfold(definitions, module)}"
        f" in ({statement}) in tryif coins_binder_in g then exact Coq.Init.Datatypes.true"
        " else exact Coq.Init.Datatypes.false)."
    )


def _unfold(definitions: tuple[str, ...], module: str) -> str:
    """``cbv beta delta [...]`` over the spec's definitions (``cbv beta`` when it has none)."""
    names = " ".join(f"{module}.{name}" for name in definitions)
    return f"cbv beta delta [{names}]" if names else "cbv beta"


RUNG_MARK = "coins_rung"
"""The message printed as each rung starts, with its number in ``LADDER``; the last one printed
names the rung that closed the goal."""
_RUNG_MARK = re.compile(rf"^(?:<infomsg>)?{RUNG_MARK} (\d+)(?:</infomsg>)?$", re.MULTILINE)


def ladder_tactic(
    definitions: tuple[str, ...], timeout_s: int, module: str, left_out: frozenset[str] = frozenset()
) -> str:
    """The ladder as one tactic: every rung under the per-goal ``timeout``, the whole too.

    Each rung first prints ``coins_rung <k>`` (its number in ``LADDER``), so the output of a
    proof tells which rung closed it (``winning_rung``); the mark costs one message per rung
    tried and changes no outcome. A rung's first success counts (``once``, as ``timeout``
    keeps only the first): a witness it left open, an existential variable no step fixed
    because a contradiction closed its branch, is then filled with its type's least value
    (``coins_fill_shelved``), so that the proof is complete for the kernel. The rungs named
    in ``left_out`` are not tried (the benchmark's ablation); an unknown name is a
    ``ValueError``.
    """
    unknown = left_out - {name for name, _ in LADDER}
    if unknown:
        raise ValueError(f"no such rung: {', '.join(sorted(unknown))}")
    unfold = _unfold(definitions, module)
    branches = [
        f'idtac "{RUNG_MARK} {number}"; solve [timeout {timeout_s}'
        f" (unshelve (once ({tactic.format(unfold=unfold)})); coins_fill_shelved)]"
        for number, (name, tactic) in enumerate(LADDER)
        if name not in left_out
    ]
    return f"timeout {timeout_s} (first [{' | '.join(branches)}])."


def winning_rung(output: str) -> str | None:
    """The name of the rung that closed a goal, from the output of the ladder that proved it.

    That is the last rung whose mark was printed; None when the output holds none (a proof
    not found by the ladder).
    """
    marks = _RUNG_MARK.findall(output)
    at = int(marks[-1]) if marks else len(LADDER)
    return LADDER[at][0] if at < len(LADDER) else None


def strip_rung_marks(output: str) -> str:
    """``output`` without the lines the rungs' marks printed."""
    return _RUNG_MARK.sub("", output)
