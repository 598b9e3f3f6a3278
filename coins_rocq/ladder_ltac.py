"""The Ltac behind the ladder's ``search`` rung and the per-spec binder probe, sent with the prelude.

``coins_crush`` is a depth-bounded search. It introduces and destructs (conjunctions,
existentials, iffs, and disjunctions before any choice on the goal), splits goals, decides
concrete ``Forall``/``Forall2``/``NoDup``/``Sorted``/``HdRel``/``In`` by their constructors and
inversions, ``Permutation`` between concrete lists by computation (``coins_rocq.ladder_perm``:
a hypothesis that computes false closes the branch), proves other inductive goals (the spec's
own relations) by trying their first four constructors in turn, or, when the last argument is a
numeral that no constructor's conclusion unifies with (``fib (S (S n)) (a + b)`` against ``fib
7 13``), the constructors on a fresh output and then the equation, and inverts such hypotheses.
A constructor step whose new goal has fewer list cells in its literal arguments than the goal
before, and an inversion after which every such hypothesis has fewer than the inverted one,
spend no depth: they walk a finite list (a subsequence of a 14-element list needs 14). It
substitutes variables bound by equations (injecting ``Some``, pair and ``cons`` equations
first, and splitting ``l = p ++ r`` with ``l`` a literal list by the cases of ``p``) and
evaluates ``nat_of_ascii`` of a character literal.

Closed propositions over literals (equations between numerals, characters or booleans, and the
standard library's ``prime``, ``rel_prime`` and ``Z.divide`` of integers, each reflected into a
boolean, under conjunctions, disjunctions and negations) are decided at once, without search: such a
hypothesis is dropped when true and closes the branch when false, and an implication with
such a premise is specialised or dropped. An implication whose conclusion holds trivially is
dropped. Other premises are proved by the search, those of the form ``~ A`` last (they need
an exhaustive refutation, where a positive premise usually needs one witness), and without
the hypothesis itself (using it would mean proving the same premise again); a closed premise
(no variable of the context: ``0 mod 3 <> 0``) is proved in an empty context, so a false one
fails at once instead of searching the spec's other hypotheses.

It enumerates a bounded natural (``i < n``, ``i <= n``, ``i + e <= n`` or ``i + e < n`` with
``e`` and ``n`` concrete) and a ``Z`` bounded by concrete numbers on both sides (at most 25 values). A divisor
``d`` of a nonzero literal (``n mod d = 0``, and ``0 < d`` for a ``Z``) ranges over ``n``'s
divisors, computed over binary ranges (``coins_ndivisors``, ``coins_zdivisors``, with lemmas that
``d`` is among them; ``n`` at most 30000 for a natural, 50000 for an integer), and a hypothesis
``forall d, ...`` naming ``n mod d`` is, in a refutation, instantiated at those divisors whose
instance refutes (for an integer, or a sealed natural above 30000, ``coins_big_nat z``, the
divisors found in pairs up to the square root, ``|n|`` or ``z`` at most 10^10); so is a claim
naming ``(q | n)``. A hypothesis ``prime q`` adds ``2 <= q``, after which ``(q | n)`` becomes
``n mod q = 0`` with ``0 < q``, whose divisors are listed as above. A conjunction
goal holding a sealed natural is split before anything is simplified, and a closed comparison
holding one, goal or hypothesis, is decided by its boolean reflection (``coins_big_compare``,
``coins_big_hyp``).
An index read from a literal list (``nth_error l i = Some v``) is below ``length l``, so it is
enumerated, bounded indices before any witness is chosen, and a concrete ``nth_error``
hypothesis is evaluated; in a refutation a hypothesis ``forall i v, nth_error l i = Some v ->
...`` (or ``forall i, nth_error l i = Some v -> ...``, ``v`` fixed) is instantiated at the
indices and elements of ``l`` whose instance refutes, and one over two indices (``forall i j v
w, nth_error l i = Some v -> nth_error l j = Some w -> ...``, ``l`` of at most 8 elements) at
the pairs of them. An index witness (``exists i, nth_error l i = Some v``, ``l`` and ``v``
concrete) is one of the positions where ``l`` holds ``v``, computed.
``Nat.Even``/``Nat.Odd``/``Z.Even``/``Z.Odd`` of a numeral are decided by their boolean
reflection (``Nat.even_spec``): a goal computes, a hypothesis becomes
``true = true`` or closes its branch. A
hypothesis ``forall x, In x l -> ...`` over a literal list is instantiated with every element
of ``l`` at once, and in a refutation (goal ``False``) so is any hypothesis ``forall x : T,
...`` over data, with every literal of type ``T`` it names: all instances together, then one
search, which is linear where trying them one by one would branch; a hypothesis ``forall x :
list A, ...`` naming a literal list ``l`` is instantiated, in a refutation, at those contiguous
slices of ``l`` whose conclusion, simplified, is false (``o <= total m`` for a too large
minimum ``o``): only instances that can refute are added, and so is a hypothesis ``forall x :
nat, ...`` bounded by a numeral ``k`` (at most 24; ``p < 5`` among its premises) at the
naturals below ``k`` (``In 4 [2; 3]`` is false: the instance at 4 refutes once its premises are
proved), and one over two naturals (``forall i j, i < j -> j < length o -> ...``) at the pairs
below ``k`` (at most 8: 64 pairs, each checked). Only an instance none of whose closed premises
is false (``1 <> 1``) and whose conclusion alone, the rest of the context cleared, is refuted
(its conjunctions, iffs and existentials taken apart, its literal-list indices enumerated,
each implication whose premise the leaves prove specialised, then closed by a leaf; a
disjunction is not split there: instances whose conclusions
branch would multiply the search that follows) is added. A bounded
hypothesis instance is simplified at once, so that its closed premise reads as a literal.
``forall i c, i < n -> e i = c' -> ...`` is tried instance by instance (the ``c``
the equation fixes). An ``exists`` witness of type ``nat`` is first the value of a closed side of an
equation it stands in (``f x = Some ?y``: ``f x`` computed), then looked for among the naturals 0..23 (a candidate
whose simplified goal holds an equation ``discriminate`` refutes, ``1 mod 3 = 0`` or ``5%Z =
2%Z``, is skipped without a search), for a ``Z`` first as the solution of a linear equation of
the goal that pins it (``16 = 2 + 2 + 2 + e``, ``10 = 2 * k``), then among the elements of the
goal's lists, the numerals of the goal and hypotheses, 0, 1 and -1, for a list among the
prefixes of a literal list the goal equates with an ``++``, then by unification, then (unless
the witness heads that ``++``, where only a prefix fits) among its other contiguous slices (a
sub-array ``l = p ++ m ++ s``), hopeless candidates skipped as for naturals, for other types
among the elements of the concrete lists in the goal, and for an ``R`` among the sides of the
goal's equations too (each term once: after ``simpl``, an ``In x l`` is ``a = x \\/ ...``),
else by unification. Equations of lists and pairs in the goal are taken apart element by
element. Leaves close by ``reflexivity``/``discriminate``/``congruence``/``lia`` (and ``lra``
when the signature uses ``R``). The left disjunct is taken only when none of its conjuncts is
an equation ``discriminate`` refutes. Steps that only walk a concrete list or disjunction (a
list constructor or inversion, the right disjunct, a case of a disjunctive hypothesis, a case
of a split list) do not spend depth, since the term they walk is finite: the depth bounds
choices, not list lengths. Axioms stay audited: every proof is followed by ``Print
Assumptions``.
"""

from __future__ import annotations

from coins_rocq.ladder_count import COUNT_LTAC
from coins_rocq.ladder_interval import INTERVAL_LTAC
from coins_rocq.ladder_ltac_helpers import HELPER_LTAC
from coins_rocq.ladder_memo import MEMO_LTAC
from coins_rocq.ladder_perm import PERM_LTAC
from coins_rocq.ladder_pinned import PINNED_LTAC
from coins_rocq.ladder_sorted import SORTED_LTAC
from coins_rocq.ltac import ltac_sentences

SEARCH_LTAC: tuple[str, ...] = ltac_sentences("search")
"""The search itself: ``coins_search`` and its mutually recursive steps, and ``coins_crush``."""

LADDER_LTAC: tuple[str, ...] = (
    *HELPER_LTAC,
    *PERM_LTAC,
    *SEARCH_LTAC,
    *INTERVAL_LTAC,
    *MEMO_LTAC,
    *COUNT_LTAC,
    *SORTED_LTAC,
    *PINNED_LTAC,
)
"""The Ltac of the ``search`` and ``recurrence`` rungs and of the per-spec binder probe (sent with the prelude)."""
