(* The Ltac of coins_rocq.ladder_ltac_helpers.HELPER_LTAC, sent with the prelude sentence by sentence. *)

Ltac coins_binder_in g :=
  match g with
  | context [forall x : ?T, @?P x] =>
      let s := type of T in lazymatch s with Prop => fail | _ => idtac end;
      let t := constr:(forall x : T, P x) in let k := type of t in lazymatch k with Prop => idtac end
  | context [@ex ?T _] => let s := type of T in lazymatch s with Prop => fail | _ => idtac end
  end.

Ltac coins_positive p :=
  lazymatch p with xH => idtac | xO ?q => coins_positive q | xI ?q => coins_positive q end.

Ltac coins_numeral x :=
  lazymatch x with
  | O => idtac | S ?m => coins_numeral m
  | Z0 => idtac | Zpos ?p => coins_positive p | Zneg ?p => coins_positive p
  end.

Ltac coins_parity_goal :=
  lazymatch goal with
  | |- Nat.Even ?n => coins_numeral n; apply Nat.even_spec; reflexivity
  | |- Nat.Odd ?n => coins_numeral n; apply Nat.odd_spec; reflexivity
  | |- Z.Even ?n => coins_numeral n; apply Z.even_spec; reflexivity
  | |- Z.Odd ?n => coins_numeral n; apply Z.odd_spec; reflexivity
  end.

Ltac coins_parity_hyp H :=
  lazymatch type of H with
  | Nat.Even ?n => coins_numeral n; apply Nat.even_spec in H; simpl in H
  | Nat.Odd ?n => coins_numeral n; apply Nat.odd_spec in H; simpl in H
  | Z.Even ?n => coins_numeral n; apply Z.even_spec in H; simpl in H
  | Z.Odd ?n => coins_numeral n; apply Z.odd_spec in H; simpl in H
  end.

Ltac coins_closed A := assert_fails (idtac; match A with context [?x] => is_var x end).

Ltac coins_concrete t := coins_closed t; assert_fails (has_evar t).

(* A natural above 30000 in a case is written coins_big_nat z. Unary naturals that large cannot be
   handled as terms: vm_compute reads its result back recursively and overflows the stack near
   65536, an error no tactic catches, which would end the whole ladder, and simpl, hnf and
   unification (discriminate, congruence, reflexivity) build them one constructor at a time. So
   coins_big_nat is sealed in a module: no tactic unfolds it, lia reads it as z (zify, through
   coins_big_nat_eq), and a goal holding one is not computed whole (coins_readable_nats). A closed
   comparison holding a natural above the unary bound (5000: sealed, or Z.to_nat z, which simpl
   would also build in unary) is decided by its boolean reflection, the sealed ones rewritten to
   Z.to_nat z, which reads back only a boolean (coins_big_compare, coins_big_hyp). *)
Module Type CoinsBigNat.
  Parameter coins_big_nat : Z -> nat.
  Axiom coins_big_nat_eq : forall z, coins_big_nat z = Z.to_nat z.
End CoinsBigNat.
Module CoinsBig : CoinsBigNat.
  Definition coins_big_nat := Z.to_nat.
  Definition coins_big_nat_eq : forall z, coins_big_nat z = Z.to_nat z := fun z => eq_refl.
End CoinsBig.
Import CoinsBig.

Definition coins_big_nat_inj : forall z, Z.of_nat (coins_big_nat z) = Z.max 0 z :=
  fun z => eq_ind_r (fun n => Z.of_nat n = Z.max 0 z) (ZifyInst.of_nat_to_nat_eq z) (coins_big_nat_eq z).
#[global] Instance coins_big_nat_zify : ZifyClasses.UnOp coins_big_nat :=
  { ZifyClasses.TUOp x := Z.max 0 x; ZifyClasses.TUOpInj := coins_big_nat_inj }.
Add Zify UnOp coins_big_nat_zify.

Ltac coins_holds_big := lazymatch goal with |- context [coins_big_nat _] => idtac end.

(* The bounds by which coins_rocq.render writes a case's natural n: n%nat up to coins_unary_nat_max,
   Z.to_nat z up to coins_computed_nat_max, coins_big_nat z above. render reads both from here. *)
Definition coins_unary_nat_max : Z := 5000.
Definition coins_computed_nat_max : Z := 30000.

(* z is an integer numeral above the bound k (a closed Z). *)
Ltac coins_z_above z k :=
  coins_numeral z; let big := eval vm_compute in (Z.ltb k z) in lazymatch big with true => idtac end.

(* A term holding a natural above the unary bound: sealed, or Z.to_nat of a numeral. *)
Ltac coins_binary_nat_in T :=
  match T with
  | context [coins_big_nat _] => idtac
  | context [Z.to_nat ?z] => coins_z_above z coins_unary_nat_max
  end.

(* vm_compute reads its result back as a term, recursively: a unary natural near 65536 overflows
   the stack. A goal holding a natural above 30000 is not computed whole: a sealed one, whose
   comparisons may equate it with a closed term that computes to its unary value, or a spec's own
   Z.to_nat z. *)
Ltac coins_readable_nats :=
  assert_fails (idtac; coins_holds_big);
  assert_fails (idtac; match goal with |- context [Z.to_nat ?z] => coins_z_above z coins_computed_nat_max end).

Ltac coins_big_compare :=
  lazymatch goal with |- ?G => coins_binary_nat_in G; coins_concrete G end;
  lazymatch goal with
  | |- @eq nat _ _ => apply Nat.eqb_eq
  | |- ~ (@eq nat _ _) => apply Nat.eqb_neq
  | |- (_ <= _)%nat => apply Nat.leb_le
  | |- (_ >= _)%nat => apply Nat.leb_le
  | |- (_ < _)%nat => apply Nat.ltb_lt
  | |- (_ > _)%nat => apply Nat.ltb_lt
  end;
  rewrite ?coins_big_nat_eq; vm_compute; reflexivity.

(* A closed comparison hypothesis holding such a natural, decided the same way: dropped when it
   holds, and its branch closed when it does not. *)
Ltac coins_big_hyp H :=
  let T := type of H in
  lazymatch T with
  | @eq nat _ _ => idtac | (_ <= _)%nat => idtac | (_ < _)%nat => idtac
  end;
  coins_binary_nat_in T; coins_concrete T;
  lazymatch T with
  | @eq nat _ _ => apply (proj2 (Nat.eqb_eq _ _)) in H
  | (_ <= _)%nat => apply (proj2 (Nat.leb_le _ _)) in H
  | (_ < _)%nat => apply (proj2 (Nat.ltb_lt _ _)) in H
  end;
  rewrite ?coins_big_nat_eq in H; vm_compute in H;
  lazymatch type of H with true = true => clear H | false = true => discriminate H end.

Fixpoint coins_zrange (start : Z) (count : nat) : list Z :=
  match count with O => nil | S c => start :: coins_zrange (Z.succ start) c end.

Definition coins_zrange_in : forall count start d, (start <= d < start + Z.of_nat count)%Z -> In d (coins_zrange start count) :=
  ltac:(induction count as [|c IH]; intros start d Hd; simpl; [ lia | ];
        destruct (Z.eq_dec start d) as [E|E]; [ left; exact E | right; apply IH; lia ]).

Definition coins_zrange_bounds : forall count start d, In d (coins_zrange start count) -> (start <= d < start + Z.of_nat count)%Z :=
  ltac:(induction count as [|c IH]; intros start d Hd; simpl in Hd; [ contradiction | ];
        destruct Hd as [E|E]; [ lia | apply IH in E; lia ]).

(* The number theory of the standard library (Znumtheory's prime and rel_prime, Z.divide) on
   closed integers, decided by reflection: each is equivalent to a boolean that vm_compute
   evaluates (prime p: 1 < p and gcd n p = 1 for every 1 <= n < p, listed when |p| <= 50000). *)
Definition coins_zprime_check (p : Z) : bool :=
  Z.ltb 1 p && forallb (fun n => Z.eqb (Z.gcd n p) 1) (coins_zrange 1 (Z.to_nat (p - 1))).

Definition coins_zprime_reflect : forall p, Znumtheory.prime p <-> coins_zprime_check p = true :=
  ltac:(intro p; unfold coins_zprime_check; split;
        [ intros [H1 H2]; apply andb_true_intro; split; [ apply Z.ltb_lt; exact H1 | ];
          apply forallb_forall; intros n Hn; apply coins_zrange_bounds in Hn; apply Z.eqb_eq;
          apply Znumtheory.Zgcd_1_rel_prime; apply H2; lia
        | intro H; apply andb_prop in H; destruct H as [H1 H2]; apply Z.ltb_lt in H1;
          constructor; [ exact H1 | ]; intros n Hn; apply Znumtheory.Zgcd_1_rel_prime; apply Z.eqb_eq;
          rewrite forallb_forall in H2; apply H2; apply coins_zrange_in; lia ]).

Definition coins_zdivide_check (a b : Z) : bool := if Z.eqb a 0 then Z.eqb b 0 else Z.eqb (b mod a) 0.

Definition coins_zdivide_reflect : forall a b, (a | b)%Z <-> coins_zdivide_check a b = true :=
  ltac:(intros a b; unfold coins_zdivide_check; destruct (Z.eqb_spec a 0) as [Ha|Ha];
        [ subst a; rewrite Z.eqb_eq; split; [ intros [k Hk]; lia | intros ->; exists 0%Z; reflexivity ]
        | rewrite Z.eqb_eq; symmetry; apply Z.mod_divide; exact Ha ]).

Definition coins_zrel_prime_reflect : forall a b, Znumtheory.rel_prime a b <-> Z.eqb (Z.gcd a b) 1 = true :=
  ltac:(intros a b; rewrite Z.eqb_eq; symmetry; apply Znumtheory.Zgcd_1_rel_prime).

(* |a| <= bound, a closed integer. *)
Ltac coins_z_at_most a bound :=
  let small := eval vm_compute in (Z.leb (Z.abs a) bound) in lazymatch small with true => idtac end.

(* A closed number-theory proposition (a prime at most 50000), and the lemma that it is
   equivalent to a boolean. *)
Ltac coins_znum_closed P :=
  lazymatch P with
  | Znumtheory.prime ?p => coins_concrete p; coins_z_at_most p 50000%Z
  | Z.divide ?a ?b => coins_concrete a; coins_concrete b
  | Znumtheory.rel_prime ?a ?b => coins_concrete a; coins_concrete b
  end.

Ltac coins_znum_reflection P :=
  lazymatch P with
  | Znumtheory.prime ?p => constr:(coins_zprime_reflect p)
  | Z.divide ?a ?b => constr:(coins_zdivide_reflect a b)
  | Znumtheory.rel_prime ?a ?b => constr:(coins_zrel_prime_reflect a b)
  end.

Ltac coins_znum_decide :=
  lazymatch goal with
  | |- ~ ?P => coins_znum_closed P; let E := coins_znum_reflection P in
               let H := fresh "H" in intro H; apply (proj1 E) in H; vm_compute in H; discriminate H
  | |- ?P => coins_znum_closed P; let E := coins_znum_reflection P in apply (proj2 E); vm_compute; reflexivity
  end.

(* prime q of a variable q adds 2 <= q, and then q | n of a nonzero numeral n becomes n mod q = 0
   with 0 < q, whose divisors the search lists. A closed number-theory hypothesis is a literal
   fact (coins_literal_prop), dropped when it holds and closing its branch when it does not. *)
Ltac coins_znum_hyp H :=
  lazymatch type of H with
  | Znumtheory.prime ?q =>
      is_var q; assert_fails (idtac; lazymatch goal with _ : (2 <= q)%Z |- _ => idtac end);
      pose proof (Znumtheory.prime_ge_2 q H)
  | Z.divide ?q ?n =>
      is_var q; coins_numeral n; lazymatch n with Z0 => fail | _ => idtac end;
      let Hp := fresh "Hp" in assert (Hp : (0 < q)%Z) by lia;
      apply (proj2 (Z.mod_divide n q ltac:(lia))) in H
  end.

Ltac coins_leaf :=
  first [ exact I | reflexivity | discriminate | contradiction | congruence | lia | coins_lra | coins_parity_goal
        | coins_big_compare | coins_znum_decide ].

Ltac coins_nat_compare :=
  lazymatch goal with
  | |- (?a <= ?b)%nat => coins_concrete a; coins_concrete b; apply Nat.leb_le; reflexivity
  | |- (?a >= ?b)%nat => coins_concrete a; coins_concrete b; apply Nat.leb_le; reflexivity
  | |- (?a < ?b)%nat => coins_concrete a; coins_concrete b; apply Nat.ltb_lt; reflexivity
  | |- (?a > ?b)%nat => coins_concrete a; coins_concrete b; apply Nat.ltb_lt; reflexivity
  end.

(* A constructor of the goal, unless the goal compares closed naturals: coins_nat_compare decides
   those, and when it fails the comparison is false, which le_S, applied down to 0, would only
   find out after as many steps as the numbers are large. *)
Ltac coins_closed_comparison :=
  lazymatch goal with
  | |- (?a <= ?b)%nat => coins_concrete a; coins_concrete b | |- (?a >= ?b)%nat => coins_concrete a; coins_concrete b
  | |- (?a < ?b)%nat => coins_concrete a; coins_concrete b | |- (?a > ?b)%nat => coins_concrete a; coins_concrete b
  end.

Ltac coins_constructor := tryif coins_closed_comparison then fail else constructor.

Ltac coins_user_inductive G :=
  lazymatch G with
  | _ /\ _ => fail | _ \/ _ => fail | _ <-> _ => fail | _ = _ => fail | ex _ => fail
  | (_ < _)%nat => fail | (_ <= _)%nat => fail | True => fail | False => fail
  | Coq.Sorting.Permutation.Permutation ?a ?b => assert_fails (coins_concrete a; coins_concrete b)
  | _ => idtac
  end.

Ltac coins_viable G :=
  lazymatch G with
  | ?A /\ ?B => coins_viable A; coins_viable B
  | ?x = ?y => assert_fails (assert (x <> y) by discriminate)
  | _ => idtac
  end.

Ltac coins_hopeful := assert_succeeds (idtac; simpl; lazymatch goal with |- ?G => coins_viable G end).

Ltac coins_clear_all := repeat match goal with H : _ |- _ => clear H end.

Ltac coins_first_prefix l k tac :=
  let p := eval vm_compute in (firstn k l) in
  let more := eval vm_compute in (Nat.ltb k (length l)) in
  first [ tac p | lazymatch more with true => coins_first_prefix l (S k) tac end ].

Ltac coins_first_slice l tac :=
  lazymatch l with _ :: ?t => first [ coins_first_prefix l (S O) tac | coins_first_slice t tac ] end.

Ltac coins_each_prefix l k tac :=
  let p := eval vm_compute in (firstn k l) in
  let more := eval vm_compute in (Nat.ltb k (length l)) in
  try tac p; lazymatch more with true => coins_each_prefix l (S k) tac | false => idtac end.

Ltac coins_each_slice l tac :=
  lazymatch l with nil => idtac | _ :: ?t => coins_each_prefix l (S O) tac; coins_each_slice t tac end.

Ltac coins_evar_heads l :=
  match goal with
  | |- context [@eq _ l (@app _ ?e _)] => is_evar e
  | |- context [@eq _ (@app _ ?e _) l] => is_evar e
  end.

Ltac coins_exists_slice l tac :=
  lazymatch l with
  | _ :: ?t => assert_fails (idtac; eexists; coins_evar_heads l); coins_first_slice t tac
  end.

Ltac coins_list_literal l := lazymatch l with nil => idtac | _ :: _ => idtac end.

Ltac coins_each_below k tac := lazymatch k with O => idtac | S ?j => try tac j; coins_each_below j tac end.

Ltac coins_cons_count l :=
  lazymatch l with _ :: ?t => let n := coins_cons_count t in constr:(S n) | _ => constr:(O) end.

Ltac coins_smaller t s :=
  let b := eval vm_compute in (Nat.ltb t s) in lazymatch b with true => idtac end.

Ltac coins_cons_size G :=
  lazymatch G with
  | ?f ?a => let n := coins_cons_size f in let k := coins_cons_count a in constr:((n + k)%nat)
  | _ => constr:(O)
  end.

Ltac coins_split_app p H := first [ coins_list_literal p | is_var p; destruct p ]; simpl in H.

Ltac coins_lt_cases :=
  match goal with
  | H : (?i < ?n)%nat |- _ =>
      is_var i; simpl in H; lazymatch type of H with (_ < ?k)%nat => coins_numeral k end;
      first [ exfalso; apply (Nat.nlt_0_r _ H)
            | destruct i as [|i]; [ clear H | apply Nat.succ_lt_mono in H; coins_lt_cases ] ]
  | H : (?i <= ?n)%nat |- _ => is_var i; apply Nat.lt_succ_r in H; coins_lt_cases
  | H : (?i + ?e <= ?n)%nat |- _ => is_var i; simpl in H; apply Nat.le_add_le_sub_r in H; coins_lt_cases
  | H : (?i + ?e < ?n)%nat |- _ => is_var i; simpl in H; apply Nat.lt_add_lt_sub_r in H; coins_lt_cases
  | H : (?i > ?n)%nat |- _ => fail
  end.

(* A lower bound on a list's length, k <= ... length l ... (k a numeral below 25, l a variable,
   lengths of appends split first): l is split into its shapes of 0..k-1 elements and the
   rest, k+1 cases, each with its own elements as variables; the claim is then checked on
   each (a minimality claim over lists: no shorter list has the property). *)
Ltac coins_length_split l k :=
  lazymatch k with
  | O => idtac
  | S ?k' => let a := fresh "a" in let l' := fresh "l" in destruct l as [|a l']; [ idtac | coins_length_split l' k' ]
  end.

Ltac coins_length_bound k b :=
  lazymatch b with context [length _] => idtac end;
  coins_numeral k; coins_smaller k 25; rewrite ?app_length;
  match goal with |- context [@length _ ?l] => is_var l; coins_length_split l k end.

Ltac coins_length_cases :=
  lazymatch goal with
  | |- (?k <= ?b)%nat => coins_length_bound k b
  | |- (?b >= ?k)%nat => coins_length_bound k b
  | |- (?k < ?b)%nat => coins_length_bound (S k) b
  | |- (?b > ?k)%nat => coins_length_bound (S k) b
  end.

Ltac coins_bool b := lazymatch b with true => idtac | false => idtac end.

Ltac coins_ascii_literal c :=
  lazymatch c with
  | Ascii ?b0 ?b1 ?b2 ?b3 ?b4 ?b5 ?b6 ?b7 =>
      coins_bool b0; coins_bool b1; coins_bool b2; coins_bool b3; coins_bool b4; coins_bool b5; coins_bool b6; coins_bool b7
  end.

Ltac coins_z_enum z lo d :=
  lazymatch d with
  | O => assert (z = lo) by lia; subst z
  | S ?e => destruct (Z.eq_dec z lo); [ subst z
                                      | let lo' := eval vm_compute in (lo + 1)%Z in coins_z_enum z lo' e ]
  end.

Ltac coins_solve_linear c t :=
  match t with
  | context C [?e] =>
      is_evar e;
      let t0 := context C [0%Z] in let t1 := context C [1%Z] in
      assert_fails (has_evar t0);
      let a := eval vm_compute in (t1 - t0)%Z in
      let b := eval vm_compute in t0 in
      let x := eval vm_compute in ((c - b) / a)%Z in
      let ok := eval vm_compute in (negb (Z.eqb a 0) && Z.eqb (a * x + b) c)%bool in
      lazymatch ok with true => unify e x end
  end.

Ltac coins_pin_evar :=
  first [ match goal with
          | |- context [@eq Z ?c ?t] => has_evar t; assert_fails (has_evar c); coins_solve_linear c t
          | |- context [@eq Z ?t ?c] => has_evar t; assert_fails (has_evar c); coins_solve_linear c t
          end
        | coins_pin_real ].

Ltac coins_pin_value e c :=
  is_evar e; coins_concrete c; let v := eval vm_compute in c in
  first [ unify e v | lazymatch v with Some ?w => unify e w end ].

Ltac coins_pin_equal :=
  match goal with
  | |- context [@eq _ ?c (Some ?e)] => coins_pin_value e c
  | |- context [@eq _ (Some ?e) ?c] => coins_pin_value e c
  | |- context [@eq _ ?c ?e] => coins_pin_value e c
  | |- context [@eq _ ?e ?c] => coins_pin_value e c
  end.

Ltac coins_literal_term x := first [ coins_numeral x | coins_ascii_literal x | coins_bool x ].

(* The value a witness must take: an equation between the evar e and a closed term that
   computes to a literal, among the goal's top-level conjuncts (r = i in exists i, ... /\ r = i
   /\ ...); every proof of the goal must satisfy it, so no other witness is worth trying. *)
Ltac coins_forced_value e c :=
  is_evar e; coins_concrete c; let v := eval vm_compute in c in coins_literal_term v; unify e v.

Ltac coins_forced_in G :=
  lazymatch G with
  | ?A /\ ?B => first [ coins_forced_in A | coins_forced_in B ]
  | @eq _ ?c ?e => coins_forced_value e c
  | @eq _ ?e ?c => coins_forced_value e c
  end.

Ltac coins_forced_pin := lazymatch goal with |- ?G => coins_forced_in G end.

Ltac coins_literal_prop A :=
  lazymatch A with
  | ?a \/ ?b => coins_literal_prop a; coins_literal_prop b
  | ?a /\ ?b => coins_literal_prop a; coins_literal_prop b
  | ~ ?a => coins_literal_prop a
  | True => idtac
  | False => idtac
  | ?x = ?y => coins_literal_term x; coins_literal_term y
  | ?P => coins_znum_closed P
  end.

Ltac coins_literal_prove :=
  lazymatch goal with
  | |- _ \/ _ => first [ left; coins_literal_prove | right; coins_literal_prove ]
  | |- _ /\ _ => split; coins_literal_prove
  | |- True => exact I
  | |- ~ _ => let H := fresh "H" in intro H; coins_literal_refute H
  | |- _ = _ => reflexivity
  | |- _ => first [ coins_nat_compare | coins_znum_decide ]
  end
with coins_literal_refute H :=
  lazymatch type of H with
  | _ \/ _ => destruct H as [H|H]; coins_literal_refute H
  | _ /\ _ => let H2 := fresh "H" in
              destruct H as [H H2]; first [ coins_literal_refute H | coins_literal_refute H2 ]
  | False => destruct H
  | ~ _ => destruct (H ltac:(coins_literal_prove))
  | _ = _ => discriminate H
  | (?a <= ?b)%nat => coins_concrete a; coins_concrete b; apply Nat.leb_le in H; vm_compute in H; discriminate H
  | (?a < ?b)%nat => coins_concrete a; coins_concrete b; apply Nat.ltb_lt in H; vm_compute in H; discriminate H
  | ?P => coins_znum_closed P; let E := coins_znum_reflection P in apply (proj1 E) in H; vm_compute in H; discriminate H
  end.

Ltac coins_literal_fact H A :=
  tryif assert_succeeds (assert A by coins_literal_prove) then clear H else coins_literal_refute H.

Ltac coins_literal_premise H := first [ specialize (H ltac:(coins_literal_prove)) | clear H ].

Ltac coins_inst_each H l :=
  lazymatch l with
  | nil => idtac
  | ?a :: ?t => let Hk := fresh "Hk" in
                pose proof (H a ltac:(simpl; repeat first [left; reflexivity | right])) as Hk;
                coins_inst_each H t
  end.

Ltac coins_member a l := lazymatch l with a :: _ => idtac | _ :: ?t => coins_member a t end.

Ltac coins_reversed l acc := lazymatch l with nil => acc | ?a :: ?t => coins_reversed t (a :: acc) end.

Ltac coins_conclusion t := lazymatch t with ?A -> ?B => coins_conclusion B | _ => t end.

Ltac coins_add_instance H a :=
  let t := type of (H a) in assert_fails (idtac; match goal with _ : t |- _ => idtac end); pose proof (H a).

Ltac coins_premises_viable t :=
  lazymatch t with
  | ?A -> ?B =>
      tryif (coins_closed A; assert_succeeds (assert (~ A) by
               (coins_clear_all; let HA := fresh "HA" in intro HA; simpl in HA; first [ discriminate | lia | congruence ])))
      then fail else coins_premises_viable B
  | _ => idtac
  end.

Ltac coins_index_bound H l i :=
  is_var i; coins_list_literal l;
  assert_fails (idtac; match goal with _ : (i < ?k)%nat |- _ => coins_numeral k end);
  let Hb := fresh "Hb" in
  assert (Hb : (i < length l)%nat) by (apply nth_error_Some; rewrite H; discriminate); simpl in Hb.

(* A premise of a hypothesis refuted alone: closed by a leaf (a parity, an equation) or computed
   when literal (a disjunction of comparisons of closed naturals), else its conjunctions split
   and its witnesses found by the equations that fix them (Some "g" = Some ?c). *)
Ltac coins_alone_prove :=
  first [ coins_leaf | coins_literal_prove | split; coins_alone_prove | eexists; coins_alone_prove ].

Ltac coins_refute_alone :=
  let Hc := fresh "Hc" in
  intro Hc; clear - Hc; simpl in Hc;
  repeat match goal with
         | H : _ /\ _ |- _ => destruct H
         | H : _ <-> _ |- _ => destruct H
         | H : exists _, _ |- _ => destruct H
         | H : nth_error ?l ?i = Some _ |- _ =>
             is_var i; coins_list_literal l; try coins_index_bound H l i; coins_lt_cases; simpl in H
         | H : ~ ?A |- _ => specialize (H ltac:(coins_alone_prove))
         | H : ?A -> _ |- _ => lazymatch type of A with Prop => specialize (H ltac:(coins_alone_prove)) end
         end;
  coins_leaf.

Ltac coins_add_refuting_term p :=
  let t := type of p in
  coins_premises_viable t;
  let c := coins_conclusion t in
  assert_succeeds (assert (~ c) by coins_refute_alone);
  assert_fails (idtac; match goal with _ : t |- _ => idtac end); pose proof p.

Ltac coins_add_refuting H a := coins_add_refuting_term (H a).

Ltac coins_add_refuting_below H a k :=
  lazymatch type of (H a) with
  | forall y : nat, _ =>
      coins_smaller k 9;
      let Ha := fresh "Ha" in
      pose proof (H a) as Ha; coins_each_below k ltac:(fun b => coins_add_refuting Ha b); clear Ha
  | _ => coins_add_refuting H a
  end.

(* The instances of H below the closed bound b (computed, a numeral below 25) that refute
   alone; at least one. *)
Ltac coins_refuting_below H b :=
  coins_closed b; let k := eval vm_compute in b in coins_numeral k; coins_smaller k 25;
  progress (coins_each_below k ltac:(fun a => coins_add_refuting_below H a k)).

(* The least value of an inductive type: its first constructor when that takes no argument
   (nil, O, Z0, EmptyString, None); fails for other types. *)
Ltac coins_least T := let a := constr:(ltac:(solve [constructor 1]) : T) in eval cbv beta in a.

(* A witness a proof left open: an existential variable that no step fixed, because the branch
   that named it was closed by a contradiction. Any value of its type completes the proof, and
   the kernel checks the result as usual; its least value fills it. Only data is filled: a goal
   that is a proposition (one the rung left unproved) fails at once, before any unification. *)
Ltac coins_fill_shelved :=
  lazymatch goal with |- ?T => lazymatch type of T with Prop => fail | _ => let a := coins_least T in exact a end end.

(* A new instance of H : forall x : T, _ at a value of T the goal names, or at T's least value:
   a universal claim is often refuted at the empty list or zero, which no literal may name. *)
Ltac coins_new_instance H T :=
  match type of H with
  | context [@eq T ?a _] => coins_add_instance H a
  | context [@eq T _ ?a] => coins_add_instance H a
  | context [@cons T ?a _] => coins_add_instance H a
  | _ => let a := coins_least T in coins_add_instance H a
  end.

(* Divisors are computed over binary numbers: a unary range of divisors costs time quadratic in
   the number, binary ranges cost about linear (a nat bound of 2000 becomes 30000). *)
Fixpoint coins_nrange (start : N) (count : nat) : list N :=
  match count with O => nil | S c => start :: coins_nrange (N.succ start) c end.

Definition coins_nrange_in : forall count start d, (start <= d < start + N.of_nat count)%N -> In d (coins_nrange start count) :=
  ltac:(induction count as [|c IH]; intros start d Hd; simpl; [ lia | ];
        destruct (N.eq_dec start d) as [E|E]; [ left; exact E | right; apply IH; lia ]).

Definition coins_ndivisors (a : nat) : list nat :=
  let n := N.of_nat a in map N.to_nat (filter (fun d => N.eqb (n mod d) 0) (coins_nrange 1 a)).

Definition coins_ndivisor_in : forall a d : nat, a mod d = 0 -> a <> 0 -> In d (coins_ndivisors a) :=
  ltac:(intros a [|d] H Ha; [ simpl in H; contradiction | ];
        pose proof (Nat.div_mod a (S d) ltac:(discriminate)) as E; rewrite H in E;
        apply in_map_iff; exists (N.of_nat (S d)); split; [ apply Coq.NArith.Nnat.Nat2N.id | ];
        cbv zeta; apply filter_In; split; [ apply coins_nrange_in; destruct (a / S d); lia
                                | apply N.eqb_eq; rewrite <- Coq.NArith.Nnat.Nat2N.inj_mod, H; reflexivity ]).

Definition coins_zdivisors (a : Z) : list Z :=
  filter (fun d => Z.eqb (a mod d) 0) (coins_zrange 1 (Z.to_nat (Z.abs a))).

Definition coins_zdivisor_in : forall a d : Z, (0 < d)%Z -> (a mod d = 0)%Z -> a <> 0%Z -> In d (coins_zdivisors a) :=
  ltac:(intros a d Hd H Ha; pose proof (Z.div_mod a d ltac:(lia)) as E; rewrite H in E;
        assert (Hle : (d <= Z.abs a)%Z) by (destruct (Z.eq_dec (a / d) 0) as [Hq|Hq]; [ rewrite Hq in E; lia | nia ]);
        apply filter_In; split; [ apply coins_zrange_in; lia | apply Z.eqb_eq; exact H ]).

(* The divisors of a positive a, found in pairs (d, a / d) with d up to the square root of a: the
   instances a refutation tries, where no lemma needs the list to be complete. *)
Fixpoint coins_zdivisors_from (a d : Z) (count : nat) : list Z :=
  match count with
  | O => nil
  | S c =>
      let rest := coins_zdivisors_from a (Z.succ d) c in
      if Z.eqb (a mod d)%Z 0 then (if Z.eqb (d * d)%Z a then d :: rest else d :: (a / d)%Z :: rest) else rest
  end.

Definition coins_zdivisor_pairs (a : Z) : list Z := coins_zdivisors_from a 1 (Z.to_nat (Z.sqrt a)).

(* The natural of a nonnegative integer numeral: unary up to 5000 (as a case writes it), else
   sealed; simpl takes n mod d apart into d cases, so a unary divisor of 13441 would cost seconds. *)
Ltac coins_nat_of_z a :=
  let small := eval vm_compute in (Z.leb a coins_unary_nat_max) in
  lazymatch small with true => eval vm_compute in (Z.to_nat a) | false => constr:(coins_big_nat a) end.

(* How large a number's divisors may be listed: a range up to the number (ranges cost about
   linear time) for a natural, whose divisors are read back in unary, and for an integer whose
   divisors a lemma enumerates (coins_zdivisor_in); pairs up to the square root
   (coins_zdivisor_pairs) for an integer, or a sealed natural, whose divisors only instantiate. *)
Ltac coins_nat_divisors_listable a := coins_smaller a (S (Z.to_nat coins_computed_nat_max)).
Ltac coins_z_divisors_listable a := coins_z_at_most a 50000%Z.
Ltac coins_z_pairs_listable a := coins_z_at_most a 10000000000%Z.

Ltac coins_divisor_fresh d :=
  lazymatch goal with _ : (_ = d \/ _) |- _ => fail | _ : (_ = d) |- _ => fail | _ => idtac end.

(* The divisor d of a is one of a's divisors, computed (a is closed: a numeral, or a larger
   natural written Z.to_nat z, which is computed first). The divisibility fact is then spent:
   each divisor satisfies it, and keeping it would have later steps compute unary remainders. *)
Ltac coins_divisors_of H a d :=
  is_var d; coins_concrete a; coins_nat_divisors_listable a; coins_smaller 0 a;
  coins_divisor_fresh d;
  let k := eval vm_compute in a in change a with k in H;
  let Hin := fresh "Hin" in pose proof (coins_ndivisor_in k d H ltac:(discriminate)) as Hin; vm_compute in Hin;
  clear H.

Ltac coins_zdivisors_of H Hp a d :=
  is_var d; coins_numeral a; lazymatch a with Z0 => fail | _ => idtac end;
  coins_z_divisors_listable a;
  coins_divisor_fresh d;
  let Hin := fresh "Hin" in pose proof (coins_zdivisor_in a d Hp H ltac:(discriminate)) as Hin; vm_compute in Hin;
  clear H.

Ltac coins_each_in l tac := lazymatch l with nil => idtac | ?a :: ?t => try tac a; coins_each_in t tac end.
