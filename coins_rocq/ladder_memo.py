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

MEMO_LTAC: tuple[str, ...] = (
    "Ltac coins_memo_side := first [ eassumption | coins_leaf ].",
    (
        "Ltac coins_memo_ctor :=\n"
        "  first [ solve [econstructor 1; coins_memo_side] | solve [econstructor 2; coins_memo_side]\n"
        "        | solve [econstructor 3; coins_memo_side] | solve [econstructor 4; coins_memo_side]\n"
        "        | solve [econstructor 5; coins_memo_side] | solve [econstructor 6; coins_memo_side] ]."
    ),
    (
        "Ltac coins_memo_unique P k v :=\n"
        '  let U := fresh "U" in\n'
        "  assert (U : forall x, P k x -> x = v)\n"
        '    by (let x := fresh "x" in let Hx := fresh "Hx" in intros x Hx; inversion Hx; subst;\n'
        "        repeat match goal with\n"
        "               | Hi : P ?j ?y, Ui : forall x, P ?j x -> x = _ |- _ => is_var y; apply Ui in Hi; subst y\n"
        "               end; coins_leaf)."
    ),
    (
        "Ltac coins_memo_up P k N unique :=\n"
        '  try (let M := fresh "M" in eassert (M : P k _) by coins_memo_ctor; simpl in M;\n'
        "       lazymatch unique with\n"
        "       | true => lazymatch type of M with P _ ?v => try coins_memo_unique P k v end\n"
        "       | false => idtac\n"
        "       end);\n"
        "  let more := eval vm_compute in (Nat.ltb k N) in\n"
        "  lazymatch more with true => coins_memo_up P (S k) N unique | false => idtac end."
    ),
    (
        "Ltac coins_memo :=\n"
        "  lazymatch goal with\n"
        "  | |- ~ ?P ?N ?w =>\n"
        "      coins_numeral N; coins_user_inductive (P N w); coins_memo_up P O N true;\n"
        '      let H := fresh "H" in intro H;\n'
        "      match goal with U : forall x, P N x -> x = _ |- _ => apply U in H; coins_leaf end\n"
        "  | |- ?P ?N ?v =>\n"
        "      coins_numeral N; coins_user_inductive (P N v); coins_memo_up P O N false; simpl; eassumption\n"
        "  end."
    ),
)
"""The rung's tactics, sent with the prelude after the helpers they call."""
