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
``NAMED_NUMERAL_MIN`` (``set (coins_k := 900)``): numerals are unary, so every tactic
that traverses the goal (``destruct``, ``eexists``, ``set``, the kernel at ``Qed``) pays
for each copy of ``900`` in proportion to its size; a local definition is one variable,
unfolded only where a computation needs its value (HumanEval/156's obligations, twice as
fast).
"""

from __future__ import annotations

NAMED_NUMERAL_MIN = 64
"""The least natural argument that ``coins_name_numerals`` names before the spec is unfolded."""

NAME_NUMERALS_LTAC: tuple[str, ...] = (
    (
        "Ltac coins_name_arg a :=\n"
        "  lazymatch type of a with\n"
        "  | nat =>\n"
        "      tryif is_var a then idtac else\n"
        f"      lazymatch eval vm_compute in (Coq.Init.Nat.leb {NAMED_NUMERAL_MIN} a) with\n"
        '      | true => let k := fresh "coins_k" in set (k := a)\n'
        "      | _ => idtac\n"
        "      end\n"
        "  | _ => idtac\n"
        "  end."
    ),
    (
        "Ltac coins_name_args t :=\n"
        "  lazymatch t with\n"
        "  | Coq.Init.Logic.not ?p => coins_name_args p\n"
        "  | ?f ?a => coins_name_args f; coins_name_arg a\n"
        "  | _ => idtac\n"
        "  end."
    ),
    "Ltac coins_name_numerals := lazymatch goal with |- ?g => coins_name_args g end.",
)
"""``coins_name_numerals``: each natural argument of the goal's head (under ``~``) that is not a
variable and computes to ``NAMED_NUMERAL_MIN`` or more becomes a local definition."""

PINNED_LTAC: tuple[str, ...] = (
    *NAME_NUMERALS_LTAC,
    "Ltac coins_open := repeat match goal with |- _ /\\ _ => split | |- @ex _ _ => eexists end.",
    "Ltac coins_nat_value t tac := let v := eval vm_compute in t in coins_numeral v; tac v.",
    "Ltac coins_value t tac := let v := eval vm_compute in t in coins_closed v; tac v.",
    "Ltac coins_head t := lazymatch t with ?f _ => coins_head f | _ => t end.",
    "Ltac coins_constructed p := let h := coins_head p in is_constructor h.",
    "Ltac coins_pattern p := has_evar p; first [let h := coins_head p in is_evar h | coins_constructed p].",
    (
        "Ltac coins_pin_pattern tac t p :=\n"
        "  coins_pattern p; assert_fails (has_evar t); coins_value t ltac:(fun v => tac p v)."
    ),
    (
        "Ltac coins_pin_with tac :=\n"
        "  match goal with\n"
        "  | |- @eq nat ?e ?t => is_evar e; assert_fails (has_evar t); coins_nat_value t ltac:(fun v => tac e v)\n"
        "  | |- @eq _ ?t ?p => coins_pin_pattern tac t p\n"
        "  | |- @eq _ ?p ?t => coins_pin_pattern tac t p\n"
        "  end."
    ),
    "Ltac coins_pinnable := coins_pin_with ltac:(fun _ _ => idtac).",
    (
        "Ltac coins_pinned_destruct :=\n"
        "  repeat match goal with H : _ /\\ _ |- _ => destruct H | H : @ex _ _ |- _ => destruct H end."
    ),
    "Ltac coins_pin_goal := coins_pin_with ltac:(fun e v => unify e v); reflexivity.",
    (
        "Ltac coins_inject_with H t p :=\n"
        "  coins_constructed p; assert_fails (coins_closed p); assert_fails (has_evar t);\n"
        "  coins_value t ltac:(fun v =>\n"
        "    let E := fresh in assert (E : t = v) by (vm_compute; reflexivity);\n"
        "    rewrite E in H; clear E;\n"
        "    first [discriminate H | injection H; clear H; intros; subst])."
    ),
    (
        "Ltac coins_pinned_inject :=\n"
        "  match goal with\n"
        "  | H : ?t = ?p |- _ => coins_inject_with H t p\n"
        "  | H : ?p = ?t |- _ => coins_inject_with H t p\n"
        "  end."
    ),
    (
        "Ltac coins_pinned_prune :=\n"
        "  coins_pinned_destruct;\n"
        "  repeat match goal with\n"
        "         | H : @eq nat ?x ?t |- _ => is_var x; coins_nat_value t ltac:(fun _ => subst x)\n"
        "         | H : ?x = ?t |- _ => is_var x; coins_closed t; subst x\n"
        "         | |- _ => coins_pinned_inject\n"
        "         end;\n"
        "  repeat match goal with\n"
        "         | H : @eq nat ?a ?b |- _ =>\n"
        "             let v := eval vm_compute in (Nat.eqb a b) in\n"
        "             lazymatch v with true => clear H | false => vm_compute in H; discriminate H end\n"
        "         end."
    ),
    (
        "Ltac coins_pinned :=\n"
        "  repeat intro;\n"
        "  lazymatch goal with\n"
        "  | H : context [@ex nat _] |- False =>\n"
        "      coins_pinned_destruct;\n"
        "      first [match goal with H : @eq nat ?x ?t |- _ => is_var x; coins_nat_value t ltac:(fun _ => idtac) end\n"
        "            | coins_pinned_inject];\n"
        "      coins_pinned_prune;\n"
        "      repeat match goal with H : _ \\/ _ |- _ => progress (vm_compute in H) end;\n"
        "      repeat (match goal with H : _ \\/ _ |- _ => destruct H end; coins_pinned_prune);\n"
        "      solve [coins_crush]\n"
        "  | |- context [@ex nat _] =>\n"
        "      assert_fails (coins_open; first [coins_pinnable; fail 1 | idtac]);\n"
        "      coins_open; try coins_pin_goal; solve [coins_crush]\n"
        "  end."
    ),
)
"""The ``pinned`` rung's Ltac, sent with the prelude after the search it calls."""
