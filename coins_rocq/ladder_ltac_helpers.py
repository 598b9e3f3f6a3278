"""The Ltac tactics the search (``coins_rocq.ladder_ltac``) builds on, in definition order.

The per-spec binder probe, the leaves, the tests on literal terms (numerals, characters,
booleans, literal lists, closed terms and closed literal propositions) and their proofs and
refutations, the walks over a literal list's prefixes and contiguous slices, enumeration of
bounded naturals and integers, the list-cell size that lets a constructor step or an
inversion over a shrinking literal list spend no depth, the solution of a linear equation
that pins an integer witness, and the instantiation of hypotheses (at a slice only where
the instance's conclusion is false). Each is defined before the tactics that call it; none
of them searches (a walk runs the tactic it is given on each prefix or slice).
"""

from __future__ import annotations

HELPER_LTAC: tuple[str, ...] = (
    (
        "Ltac coins_binder_in g :=\n"
        "  match g with\n"
        "  | context [forall x : ?T, @?P x] =>\n"
        "      let s := type of T in lazymatch s with Prop => fail | _ => idtac end;\n"
        "      let t := constr:(forall x : T, P x) in let k := type of t in lazymatch k with Prop => idtac end\n"
        "  | context [@ex ?T _] => let s := type of T in lazymatch s with Prop => fail | _ => idtac end\n"
        "  end."
    ),
    (
        "Ltac coins_leaf := first [ exact I | reflexivity | discriminate | contradiction | congruence | lia"
        " | coins_lra ]."
    ),
    (
        "Ltac coins_user_inductive G :=\n"
        "  lazymatch G with\n"
        "  | _ /\\ _ => fail | _ \\/ _ => fail | _ <-> _ => fail | _ = _ => fail | ex _ => fail\n"
        "  | (_ < _)%nat => fail | (_ <= _)%nat => fail | True => fail | False => fail | _ => idtac\n"
        "  end."
    ),
    (
        "Ltac coins_viable G :=\n"
        "  lazymatch G with\n"
        "  | ?A /\\ ?B => coins_viable A; coins_viable B\n"
        "  | ?x = ?y => assert_fails (assert (x <> y) by discriminate)\n"
        "  | _ => idtac\n"
        "  end."
    ),
    ("Ltac coins_hopeful := assert_succeeds (idtac; simpl; lazymatch goal with |- ?G => coins_viable G end)."),
    "Ltac coins_closed A := assert_fails (idtac; match A with context [?x] => is_var x end).",
    "Ltac coins_clear_all := repeat match goal with H : _ |- _ => clear H end.",
    (
        "Ltac coins_first_prefix l k tac :=\n"
        "  let p := eval vm_compute in (firstn k l) in\n"
        "  let more := eval vm_compute in (Nat.ltb k (length l)) in\n"
        "  first [ tac p | lazymatch more with true => coins_first_prefix l (S k) tac end ]."
    ),
    (
        "Ltac coins_first_slice l tac :=\n"
        "  lazymatch l with _ :: ?t => first [ coins_first_prefix l (S O) tac | coins_first_slice t tac ] end."
    ),
    (
        "Ltac coins_each_prefix l k tac :=\n"
        "  let p := eval vm_compute in (firstn k l) in\n"
        "  let more := eval vm_compute in (Nat.ltb k (length l)) in\n"
        "  try tac p; lazymatch more with true => coins_each_prefix l (S k) tac | false => idtac end."
    ),
    (
        "Ltac coins_each_slice l tac :=\n"
        "  lazymatch l with nil => idtac | _ :: ?t => coins_each_prefix l (S O) tac; coins_each_slice t tac end."
    ),
    (
        "Ltac coins_evar_heads l :=\n"
        "  match goal with\n"
        "  | |- context [@eq _ l (@app _ ?e _)] => is_evar e\n"
        "  | |- context [@eq _ (@app _ ?e _) l] => is_evar e\n"
        "  end."
    ),
    (
        "Ltac coins_exists_slice l tac :=\n"
        "  lazymatch l with\n"
        "  | _ :: ?t => assert_fails (idtac; eexists; coins_evar_heads l); coins_first_slice t tac\n"
        "  end."
    ),
    "Ltac coins_list_literal l := lazymatch l with nil => idtac | _ :: _ => idtac end.",
    "Ltac coins_each_below k tac := lazymatch k with O => idtac | S ?j => try tac j; coins_each_below j tac end.",
    (
        "Ltac coins_cons_count l :=\n"
        "  lazymatch l with _ :: ?t => let n := coins_cons_count t in constr:(S n) | _ => constr:(O) end."
    ),
    ("Ltac coins_smaller t s :=\n  let b := eval vm_compute in (Nat.ltb t s) in lazymatch b with true => idtac end."),
    (
        "Ltac coins_cons_size G :=\n"
        "  lazymatch G with\n"
        "  | ?f ?a => let n := coins_cons_size f in let k := coins_cons_count a in constr:((n + k)%nat)\n"
        "  | _ => constr:(O)\n"
        "  end."
    ),
    ("Ltac coins_split_app p H := first [ coins_list_literal p | is_var p; destruct p ]; simpl in H."),
    (
        "Ltac coins_positive p :=\n"
        "  lazymatch p with xH => idtac | xO ?q => coins_positive q | xI ?q => coins_positive q end."
    ),
    (
        "Ltac coins_numeral x :=\n"
        "  lazymatch x with\n"
        "  | O => idtac | S ?m => coins_numeral m\n"
        "  | Z0 => idtac | Zpos ?p => coins_positive p | Zneg ?p => coins_positive p\n"
        "  end."
    ),
    (
        "Ltac coins_lt_cases :=\n"
        "  match goal with\n"
        "  | H : (?i < ?n)%nat |- _ =>\n"
        "      is_var i; simpl in H; lazymatch type of H with (_ < ?k)%nat => coins_numeral k end;\n"
        "      first [ exfalso; apply (Nat.nlt_0_r _ H)\n"
        "            | destruct i as [|i]; [ clear H | apply Nat.succ_lt_mono in H; coins_lt_cases ] ]\n"
        "  | H : (?i <= ?n)%nat |- _ => is_var i; apply Nat.lt_succ_r in H; coins_lt_cases\n"
        "  | H : (?i + ?e <= ?n)%nat |- _ => is_var i; simpl in H; apply Nat.le_add_le_sub_r in H; coins_lt_cases\n"
        "  | H : (?i > ?n)%nat |- _ => fail\n"
        "  end."
    ),
    (
        "Ltac coins_literal_arg G :=\n"
        "  lazymatch G with\n"
        "  | ?f ?a => first [ coins_numeral a | coins_list_literal a | coins_literal_arg f ]\n"
        "  end."
    ),
    (
        "Ltac coins_not_library G :=\n"
        "  lazymatch G with\n"
        "  | Forall _ _ => fail | Forall2 _ _ _ => fail | Exists _ _ => fail | NoDup _ => fail\n"
        "  | Sorted _ _ => fail | StronglySorted _ _ => fail | HdRel _ _ _ => fail | _ => idtac\n"
        "  end."
    ),
    (
        "Ltac coins_invert_literal :=\n"
        "  match goal with\n"
        "  | H : ?P ?x |- _ =>\n"
        "      lazymatch type of (P x) with Prop => idtac end; coins_user_inductive (P x); coins_not_library (P x);\n"
        "      tryif coins_numeral x\n"
        "      then (coins_literal_arg P;\n"
        '            let Hx := fresh "Hx" in let r := fresh "r" in let Hr := fresh "Hr" in let H2 := fresh "H" in\n'
        "            pose proof (ex_intro (fun r => P r /\\ r = x) x (conj H eq_refl)) as Hx; clear H;\n"
        "            destruct Hx as [r [H2 Hr]]; inversion H2; clear H2; subst)\n"
        "      else (coins_literal_arg (P x); inversion H; clear H; subst)\n"
        "  end."
    ),
    "Ltac coins_bool b := lazymatch b with true => idtac | false => idtac end.",
    (
        "Ltac coins_ascii_literal c :=\n"
        "  lazymatch c with\n"
        "  | Ascii ?b0 ?b1 ?b2 ?b3 ?b4 ?b5 ?b6 ?b7 =>\n"
        "      coins_bool b0; coins_bool b1; coins_bool b2; coins_bool b3;"
        " coins_bool b4; coins_bool b5; coins_bool b6; coins_bool b7\n"
        "  end."
    ),
    (
        "Ltac coins_z_enum z lo d :=\n"
        "  lazymatch d with\n"
        "  | O => assert (z = lo) by lia; subst z\n"
        "  | S ?e => destruct (Z.eq_dec z lo); [ subst z\n"
        "                                      | let lo' := eval vm_compute in (lo + 1)%Z in coins_z_enum z lo' e ]\n"
        "  end."
    ),
    (
        "Ltac coins_solve_linear c t :=\n"
        "  match t with\n"
        "  | context C [?e] =>\n"
        "      is_evar e;\n"
        "      let t0 := context C [0%Z] in let t1 := context C [1%Z] in\n"
        "      let a := eval vm_compute in (t1 - t0)%Z in\n"
        "      let b := eval vm_compute in t0 in\n"
        "      let x := eval vm_compute in ((c - b) / a)%Z in\n"
        "      let ok := eval vm_compute in (negb (Z.eqb a 0) && Z.eqb (a * x + b) c)%bool in\n"
        "      lazymatch ok with true => unify e x end\n"
        "  end."
    ),
    (
        "Ltac coins_pin_evar :=\n"
        "  match goal with\n"
        "  | |- context [@eq Z ?c ?t] => has_evar t; assert_fails (has_evar c); coins_solve_linear c t\n"
        "  | |- context [@eq Z ?t ?c] => has_evar t; assert_fails (has_evar c); coins_solve_linear c t\n"
        "  end."
    ),
    ("Ltac coins_literal_term x := first [ coins_numeral x | coins_ascii_literal x | coins_bool x ]."),
    (
        "Ltac coins_literal_prop A :=\n"
        "  lazymatch A with\n"
        "  | ?a \\/ ?b => coins_literal_prop a; coins_literal_prop b\n"
        "  | ?a /\\ ?b => coins_literal_prop a; coins_literal_prop b\n"
        "  | ~ ?a => coins_literal_prop a\n"
        "  | True => idtac\n"
        "  | False => idtac\n"
        "  | ?x = ?y => coins_literal_term x; coins_literal_term y\n"
        "  end."
    ),
    (
        "Ltac coins_literal_prove :=\n"
        "  lazymatch goal with\n"
        "  | |- _ \\/ _ => first [ left; coins_literal_prove | right; coins_literal_prove ]\n"
        "  | |- _ /\\ _ => split; coins_literal_prove\n"
        "  | |- True => exact I\n"
        '  | |- ~ _ => let H := fresh "H" in intro H; coins_literal_refute H\n'
        "  | |- _ = _ => reflexivity\n"
        "  end\n"
        "with coins_literal_refute H :=\n"
        "  lazymatch type of H with\n"
        "  | _ \\/ _ => destruct H as [H|H]; coins_literal_refute H\n"
        '  | _ /\\ _ => let H2 := fresh "H" in\n'
        "              destruct H as [H H2]; first [ coins_literal_refute H | coins_literal_refute H2 ]\n"
        "  | False => destruct H\n"
        "  | ~ _ => destruct (H ltac:(coins_literal_prove))\n"
        "  | _ = _ => discriminate H\n"
        "  end."
    ),
    (
        "Ltac coins_literal_fact H A :=\n"
        "  tryif assert_succeeds (assert A by coins_literal_prove) then clear H else coins_literal_refute H."
    ),
    ("Ltac coins_literal_premise H := first [ specialize (H ltac:(coins_literal_prove)) | clear H ]."),
    (
        "Ltac coins_inst_each H l :=\n"
        "  lazymatch l with\n"
        "  | nil => idtac\n"
        '  | ?a :: ?t => let Hk := fresh "Hk" in\n'
        "                pose proof (H a ltac:(simpl; repeat first [left; reflexivity | right])) as Hk;\n"
        "                coins_inst_each H t\n"
        "  end."
    ),
    ("Ltac coins_member a l := lazymatch l with a :: _ => idtac | _ :: ?t => coins_member a t end."),
    ("Ltac coins_reversed l acc := lazymatch l with nil => acc | ?a :: ?t => coins_reversed t (a :: acc) end."),
    "Ltac coins_conclusion t := lazymatch t with ?A -> ?B => coins_conclusion B | _ => t end.",
    (
        "Ltac coins_add_instance H a :=\n"
        "  let t := type of (H a) in assert_fails (idtac; match goal with _ : t |- _ => idtac end); pose proof (H a)."
    ),
    (
        "Ltac coins_add_refuting H a :=\n"
        "  let c := let t := type of (H a) in coins_conclusion t in\n"
        '  assert_succeeds (assert (~ c) by (let Hc := fresh "Hc" in intro Hc; simpl in Hc; coins_leaf));\n'
        "  coins_add_instance H a."
    ),
    (
        "Ltac coins_new_instance H T :=\n"
        "  match type of H with\n"
        "  | context [@eq T ?a _] => coins_add_instance H a\n"
        "  | context [@eq T _ ?a] => coins_add_instance H a\n"
        "  | context [@cons T ?a _] => coins_add_instance H a\n"
        "  end."
    ),
)
"""The helper tactics, sent with the prelude before the search that calls them."""
