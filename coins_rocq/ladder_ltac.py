"""The Ltac behind the ladder's ``search`` rung and the per-spec binder probe, sent with the prelude.

``coins_crush`` is a depth-bounded search. It introduces and destructs (conjunctions,
existentials, iffs, and disjunctions before any choice on the goal), splits goals, decides
concrete ``Forall``/``Forall2``/``NoDup``/``Sorted``/``HdRel``/``In`` by their constructors
and inversions, proves other inductive goals (the spec's own relations) by trying their
first four constructors in turn, or, when the last argument is a numeral that no
constructor's conclusion unifies with (``fib (S (S n)) (a + b)`` against ``fib 7 13``), the
constructors on a fresh output and then the equation, and inverts such hypotheses. A
constructor step whose new goal has fewer list cells in its literal arguments than the goal
before, and an inversion after which every such hypothesis has fewer than the inverted one,
spend no depth: they walk a finite list (a subsequence of a 14-element list needs 14). It
substitutes variables bound by equations (injecting ``Some``, pair and ``cons`` equations
first, and splitting ``l = p ++ r`` with ``l`` a literal list by the cases of ``p``) and
evaluates ``nat_of_ascii`` of a character literal.

Closed propositions over literals (equations between numerals, characters or booleans, under
conjunctions, disjunctions and negations) are decided at once, without search: such a
hypothesis is dropped when true and closes the branch when false, and an implication with
such a premise is specialised or dropped. An implication whose conclusion holds trivially is
dropped. Other premises are proved by the search, those of the form ``~ A`` last (they need
an exhaustive refutation, where a positive premise usually needs one witness), and without
the hypothesis itself (using it would mean proving the same premise again); a closed premise
(no variable of the context: ``0 mod 3 <> 0``) is proved in an empty context, so a false one
fails at once instead of searching the spec's other hypotheses.

It enumerates a bounded natural (``i < n``, ``i <= n`` or ``i + e <= n`` with ``e`` and
``n`` concrete) and a ``Z`` bounded by concrete numbers on both sides (at most 25 values). A
hypothesis ``forall x, In x l -> ...`` over a literal list is instantiated with every
element of ``l`` at once, and in a refutation (goal ``False``) so is any hypothesis ``forall
x : T, ...`` over data, with every literal of type ``T`` it names: all instances together,
then one search, which is linear where trying them one by one would branch; a hypothesis
``forall x : list A, ...`` naming a literal list ``l`` is instantiated, in a refutation, at
those contiguous slices of ``l`` whose conclusion, simplified, is false (``o <= total m``
for a too large minimum ``o``): only instances that can refute are added, and so is a
hypothesis ``forall x : nat, ...`` bounded by a numeral ``k`` (at most 24; ``p < 5`` among
its premises) at the naturals below ``k`` (``In 4 [2; 3]`` is false: the instance at 4
refutes once its premises are proved). A bounded hypothesis instance is simplified at once,
so that its closed premise reads as a literal. ``forall i c, i < n -> e i = c' -> ...`` is
tried instance by instance (the ``c`` the equation fixes). An ``exists`` witness is looked
for among the naturals 0..23 (a candidate whose simplified goal holds an equation
``discriminate`` refutes, ``1 mod 3 = 0`` or ``5%Z = 2%Z``, is skipped without a search),
for a ``Z`` first as the solution of a linear equation of the goal that pins it (``16 = 2 +
2 + 2 + e``, ``10 = 2 * k``), then among the elements of the goal's lists, the numerals of
the goal and hypotheses, 0, 1 and -1, for a list among the prefixes of a literal list the
goal equates with an ``++``, then by unification, then (unless the witness heads that
``++``, where only a prefix fits) among its other contiguous slices (a sub-array ``l = p ++
m ++ s``), hopeless candidates skipped as for naturals, for other types among the elements
of the concrete lists in the goal, and for an ``R`` among the sides of the goal's equations
too (each term once: after ``simpl``, an ``In x l`` is ``a = x \\/ ...``), else by
unification. Equations of lists and pairs in the goal are taken apart element by element.
Leaves close by ``reflexivity``/``discriminate``/``congruence``/``lia`` (and ``lra`` when
the signature uses ``R``). The left disjunct is taken only when none of its conjuncts is an
equation ``discriminate`` refutes. Steps that only walk a concrete list or disjunction (a
list constructor or inversion, the right disjunct, a case of a disjunctive hypothesis, a
case of a split list) do not spend depth, since the term they walk is finite: the depth
bounds choices, not list lengths. Axioms stay audited: every proof is followed by ``Print
Assumptions``.
"""

from __future__ import annotations

from coins_rocq.ladder_count import COUNT_LTAC
from coins_rocq.ladder_ltac_helpers import HELPER_LTAC
from coins_rocq.ladder_memo import MEMO_LTAC
from coins_rocq.ladder_pinned import PINNED_LTAC
from coins_rocq.ladder_sorted import SORTED_LTAC

SEARCH_LTAC: tuple[str, ...] = (
    (
        "Ltac coins_search n :=\n"
        "  lazymatch n with\n"
        "  | O => coins_leaf\n"
        "  | S ?m =>\n"
        "    repeat match goal with\n"
        "           | |- forall _, _ => intro\n"
        "           | |- ~ _ => intro\n"
        "           | H : _ /\\ _ |- _ => destruct H\n"
        "           | H : exists _, _ |- _ => destruct H\n"
        "           | H : _ <-> _ |- _ => destruct H\n"
        "           | H : True |- _ => clear H\n"
        "           | H : ?A -> _ |- _ => coins_literal_prop A; coins_literal_premise H\n"
        "           | H : ?A |- _ => coins_literal_prop A; coins_literal_fact H A\n"
        "           | H : _ -> True |- _ => clear H\n"
        "           | H : _ -> ?x = ?x |- _ => clear H\n"
        "           | H : ?x = ?y |- _ => is_var x; subst x\n"
        "           | H : ?x = ?y |- _ => is_var y; subst y\n"
        "           | H : Some _ = Some _ |- _ => injection H; clear H; intros\n"
        "           | H : (_, _) = (_, _) |- _ => injection H; clear H; intros\n"
        "           | H : _ :: _ = _ :: _ |- _ => injection H; clear H; intros\n"
        "           | |- true = false => exfalso\n"
        "           | |- false = true => exfalso\n"
        "           | H : true = false |- _ => discriminate H\n"
        "           | H : false = true |- _ => discriminate H\n"
        "           | H : nil = _ :: _ |- _ => discriminate H\n"
        "           | H : _ :: _ = nil |- _ => discriminate H\n"
        "           | H : ?l = ?p ++ _ |- _ => coins_list_literal l; coins_split_app p H\n"
        "           | H : ?p ++ _ = ?l |- _ => coins_list_literal l; coins_split_app p H\n"
        "           | |- context [nat_of_ascii ?c] =>\n"
        "               coins_ascii_literal c; let v := eval vm_compute in (nat_of_ascii c) in"
        " change (nat_of_ascii c) with v\n"
        "           | H : context [nat_of_ascii ?c] |- _ =>\n"
        "               coins_ascii_literal c; let v := eval vm_compute in (nat_of_ascii c) in"
        " change (nat_of_ascii c) with v in H\n"
        "           | H : (?x > ?y)%Z |- _ => apply Z.gt_lt in H\n"
        "           | H : (?x >= ?y)%Z |- _ => apply Z.ge_le in H\n"
        "           end;\n"
        "    first [ coins_leaf\n"
        "          | match goal with\n"
        "            | H : forall i : nat, (i < ?k)%nat -> _ |- _ =>\n"
        "                let k' := eval vm_compute in k in coins_inst_nat m H k' O\n"
        "            | H : forall (i : nat) (c : ?T), (i < ?k)%nat -> _ |- _ =>\n"
        "                let k' := eval vm_compute in k in coins_inst_nat_eq m H k' O\n"
        "            | H : forall x, In x ?l -> _ |- _ =>\n"
        "                let l' := eval vm_compute in l in coins_inst_in m H l'\n"
        "            end\n"
        "          | simpl in *;\n"
        "            first [ coins_leaf\n"
        "                  | match goal with\n"
        "                    | H : False |- _ => contradiction\n"
        "                    | H : ?l = ?p ++ _ |- _ => coins_list_literal l; coins_split_app p H; coins_search n\n"
        "                    | H : ?p ++ _ = ?l |- _ => coins_list_literal l; coins_split_app p H; coins_search n\n"
        "                    | H : _ /\\ _ |- _ => destruct H; coins_search m\n"
        "                    | H : exists _, _ |- _ => destruct H; coins_search m\n"
        "                    | H : _ <-> _ |- _ => destruct H; coins_search m\n"
        "                    | H : _ \\/ _ |- _ => destruct H; coins_search n\n"
        "                    | |- ?G => lazymatch G with _ :: _ = _ :: _ => idtac | (_, _) = (_, _) => idtac end;\n"
        "                        coins_viable G; f_equal; coins_search n\n"
        "                    | |- _ /\\ _ => split; coins_search m\n"
        "                    | |- _ <-> _ => split; coins_search m\n"
        "                    | |- ~ _ => intro; coins_search m\n"
        "                    | |- Forall _ _ => constructor; coins_search n\n"
        "                    | |- NoDup _ => constructor; coins_search n\n"
        "                    | |- Sorted _ _ => constructor; coins_search n\n"
        "                    | |- HdRel _ _ _ => constructor; coins_search n\n"
        "                    | |- Forall2 _ _ _ => constructor; coins_search n\n"
        "                    | |- ?A \\/ _ =>\n"
        "                        first [ coins_viable A; left; solve [coins_search m] | right; coins_search n ]\n"
        "                    | |- exists _ : nat, _ => coins_exists_nat m O constr:(24%nat)\n"
        "                    | |- @ex (list ?A) _ => exists (@nil A); solve [coins_search m]\n"
        "                    | |- exists _ : Z, _ => coins_exists_z m\n"
        "                    | |- @ex ?T _ =>\n"
        "                        tryif coins_real T then coins_exists_candidates m T\n"
        "                        else match goal with\n"
        "                             | |- context [@cons T ?a _] => exists a; solve [coins_search m]\n"
        "                             end\n"
        "                    | |- @ex (list ?A) _ => coins_exists_split m A\n"
        "                    | |- exists _, _ => eexists; coins_search m\n"
        "                    | |- @ex (list ?A) _ => coins_exists_inner m A\n"
        "                    | H : (?i < ?k)%nat |- _ => coins_lt_cases; coins_search m\n"
        "                    | H : (?i <= ?k)%nat |- _ => coins_lt_cases; coins_search m\n"
        "                    | H1 : (?a <= ?z)%Z, H2 : (?z <= ?b)%Z |- _ => coins_z_cases m z a b\n"
        "                    | H1 : (?a < ?z)%Z, H2 : (?z <= ?b)%Z |- _ => coins_z_cases m z (a + 1)%Z b\n"
        "                    | H1 : (?a <= ?z)%Z, H2 : (?z < ?b)%Z |- _ => coins_z_cases m z a (b - 1)%Z\n"
        "                    | H1 : (?a < ?z)%Z, H2 : (?z < ?b)%Z |- _ => coins_z_cases m z (a + 1)%Z (b - 1)%Z\n"
        "                    | H : Forall _ (_ :: _) |- _ => inversion H; clear H; subst; coins_search n\n"
        "                    | H : Sorted _ (_ :: _) |- _ => inversion H; clear H; subst; coins_search n\n"
        "                    | H : HdRel _ _ (_ :: _) |- _ => inversion H; clear H; subst; coins_search n\n"
        "                    | H : NoDup (_ :: _) |- _ => inversion H; clear H; subst; coins_search n\n"
        "                    | H : Forall2 _ (_ :: _) _ |- _ => inversion H; clear H; subst; coins_search n\n"
        "                    | |- ?G =>\n"
        "                        coins_user_inductive G;\n"
        "                        first [ coins_constructors m | coins_ctor_numeral m ]\n"
        "                    | H : ?G |- _ =>\n"
        "                        lazymatch type of G with Prop => coins_user_inductive G end;\n"
        "                        let s := coins_cons_size G in\n"
        "                        inversion H; clear H; subst; coins_search_inverted m s\n"
        "                    | H : ~ ?A |- _ => exfalso; apply H; clear H; coins_search m\n"
        "                    | H : ?A -> ?B |- _ =>\n"
        "                        lazymatch A with ~ _ => fail | _ => idtac end;\n"
        "                        lazymatch type of A with Prop => coins_premise m H A end\n"
        "                    | H : ~ ?A -> ?B |- _ => coins_premise m H (~ A)\n"
        "                    | H : forall x : list ?A, _ |- False => coins_inst_slices m H A\n"
        "                    | H : forall x : nat, _ |- False => coins_inst_below m H\n"
        "                    | H : forall x : ?T, _ |- False =>\n"
        "                        let s := type of T in lazymatch s with Prop => fail | _ => coins_inst_data m H T end\n"
        "                    end ] ]\n"
        "  end\n"
        "with coins_premise m H A :=\n"
        '  let HA := fresh "HA" in\n'
        "  tryif coins_literal_prop A then (assert (HA : A) by coins_literal_prove)\n"
        "  else tryif coins_closed A then (assert (HA : A) by (coins_clear_all; solve [coins_search m]))\n"
        "  else (assert (HA : A) by (clear H; solve [coins_search m]));\n"
        "  specialize (H HA); coins_search m\n"
        "with coins_inst_data m H T :=\n"
        "  coins_new_instance H T; repeat coins_new_instance H T; clear H; coins_search m\n"
        "with coins_exists_nat m k bound :=\n"
        "  lazymatch bound with\n"
        "  | O => fail\n"
        "  | S ?b => first [ exists k; coins_hopeful; solve [coins_search m] | coins_exists_nat m (S k) b ]\n"
        "  end\n"
        "with coins_exists_candidates m T :=\n"
        '  let acc := fresh "acc" in\n'
        "  pose (acc := @nil T);\n"
        "  let add a := let l := eval cbv delta [acc] in acc in\n"
        "               assert_fails (idtac; coins_member a l); clear acc; pose (acc := a :: l) in\n"
        "  repeat (idtac; match goal with\n"
        "                 | |- context [@eq T ?a _] => add a\n"
        "                 | |- context [@eq T _ ?a] => add a\n"
        "                 | |- context [@cons T ?a _] => add a\n"
        "                 end);\n"
        "  let l := eval cbv delta [acc] in acc in\n"
        "  clear acc; let r := coins_reversed l (@nil T) in coins_exists_each m r\n"
        "with coins_exists_each m l :=\n"
        "  lazymatch l with ?a :: ?t => first [ exists a; solve [coins_search m] | coins_exists_each m t ] end\n"
        "with coins_exists_z m :=\n"
        "  first [ eexists; coins_pin_evar; solve [coins_search m]\n"
        "        | match goal with |- context [@cons Z ?a _] => exists a; solve [coins_search m] end\n"
        "        | match goal with |- context [Zpos ?p] => exists (Zpos p); solve [coins_search m] end\n"
        "        | match goal with H : context [Zpos ?p] |- _ => exists (Zpos p); solve [coins_search m] end\n"
        "        | match goal with |- context [Zneg ?p] => exists (Zneg p); solve [coins_search m] end\n"
        "        | exists 0%Z; solve [coins_search m] | exists 1%Z; solve [coins_search m]\n"
        "        | exists (-1)%Z; solve [coins_search m] ]\n"
        "with coins_ctor_numeral m :=\n"
        "  lazymatch goal with\n"
        "  | |- ?P ?x =>\n"
        "      coins_numeral x;\n"
        "      refine (@eq_ind _ _ P _ x _);\n"
        "      [ coins_constructors m | coins_leaf ]\n"
        "  end\n"
        "with coins_constructors m :=\n"
        "  let s := lazymatch goal with |- ?G => coins_cons_size G end in\n"
        "  first [ solve [constructor 1; coins_search_smaller m s]\n"
        "        | solve [constructor 2; coins_search_smaller m s]\n"
        "        | solve [constructor 3; coins_search_smaller m s]\n"
        "        | solve [constructor 4; coins_search_smaller m s] ]\n"
        "with coins_search_inverted m s :=\n"
        "  tryif (idtac; match goal with\n"
        "               | H : ?G |- _ =>\n"
        "                   lazymatch type of G with Prop => coins_user_inductive G end;\n"
        "                   let t := coins_cons_size G in assert_fails (idtac; coins_smaller t s)\n"
        "               end)\n"
        "  then coins_search m else coins_search (S m)\n"
        "with coins_search_smaller m s :=\n"
        "  let t := lazymatch goal with |- ?G => coins_cons_size G end in\n"
        "  tryif coins_smaller t s then coins_search (S m) else coins_search m\n"
        "with coins_exists_split m A :=\n"
        "  let try_slice := ltac:(fun p => exists p; coins_hopeful; solve [coins_search m]) in\n"
        "  match goal with\n"
        "  | |- context [@eq (list A) ?l (@app A _ _)] => coins_first_prefix l (S O) try_slice\n"
        "  | |- context [@eq (list A) (@app A _ _) ?l] => coins_first_prefix l (S O) try_slice\n"
        "  end\n"
        "with coins_exists_inner m A :=\n"
        "  let try_slice := ltac:(fun p => exists p; coins_hopeful; solve [coins_search m]) in\n"
        "  match goal with\n"
        "  | |- context [@eq (list A) ?l (@app A _ _)] => coins_exists_slice l try_slice\n"
        "  | |- context [@eq (list A) (@app A _ _) ?l] => coins_exists_slice l try_slice\n"
        "  end\n"
        "with coins_inst_slices m H A :=\n"
        "  let add := ltac:(fun a => coins_add_refuting H a) in\n"
        "  match type of H with\n"
        "  | context [@eq (list A) ?l _] => coins_list_literal l; progress (coins_each_slice l add)\n"
        "  | context [@eq (list A) _ ?l] => coins_list_literal l; progress (coins_each_slice l add)\n"
        "  end;\n"
        "  clear H; coins_search m\n"
        "with coins_inst_below m H :=\n"
        "  let add := ltac:(fun a => coins_add_refuting H a) in\n"
        "  match type of H with\n"
        "  | context [(_ < ?k)%nat] => coins_numeral k; coins_smaller k 25; progress (coins_each_below k add)\n"
        "  end;\n"
        "  clear H; coins_search m\n"
        "with coins_z_cases m z lo hi :=\n"
        "  is_var z;\n"
        "  let lo' := eval vm_compute in lo in\n"
        "  let d := eval vm_compute in (Z.to_nat (hi - lo)) in\n"
        "  let small := eval vm_compute in (Nat.leb d 24) in\n"
        "  lazymatch small with true => coins_z_enum z lo' d; coins_search m end\n"
        "with coins_inst_nat m H n k :=\n"
        "  lazymatch n with\n"
        "  | O => fail\n"
        '  | S ?b => first [ let Hk := fresh "Hk" in pose proof (H k ltac:(simpl; lia)) as Hk; clear H; simpl in Hk;'
        " solve [coins_search m]\n"
        "                  | coins_inst_nat m H b (S k) ]\n"
        "  end\n"
        "with coins_inst_nat_eq m H n k :=\n"
        "  lazymatch n with\n"
        "  | O => fail\n"
        '  | S ?b => first [ let Hk := fresh "Hk" in pose proof (H k _ ltac:(simpl; lia) eq_refl) as Hk; clear H;'
        " solve [coins_search m]\n"
        "                  | coins_inst_nat_eq m H b (S k) ]\n"
        "  end\n"
        "with coins_inst_in m H l :=\n"
        "  lazymatch l with nil => fail | _ :: _ => coins_inst_each H l; clear H; coins_search m end."
    ),
    "Ltac coins_crush := solve [coins_search constr:(12%nat)].",
)
"""The search itself: ``coins_search`` and its mutually recursive steps, and ``coins_crush``."""

LADDER_LTAC: tuple[str, ...] = (*HELPER_LTAC, *SEARCH_LTAC, *MEMO_LTAC, *COUNT_LTAC, *SORTED_LTAC, *PINNED_LTAC)
"""The Ltac of the ``search`` and ``recurrence`` rungs and of the per-spec binder probe (sent with the prelude)."""
