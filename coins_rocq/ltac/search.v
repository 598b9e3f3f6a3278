(* The Ltac of coins_rocq.ladder_ltac.SEARCH_LTAC, sent with the prelude sentence by sentence. *)

(* A claim over the divisors of the integer numeral k, instantiated at those whose instance refutes. *)
Ltac coins_zdivisor_instances H k :=
  coins_numeral k; coins_z_pairs_listable k;
  let l := eval vm_compute in (coins_zdivisor_pairs (Z.abs k)) in
  progress (coins_each_in l ltac:(fun a => coins_add_refuting H a)).

Ltac coins_search n :=
  lazymatch n with
  | O => coins_leaf
  | S ?m =>
    repeat match goal with
           | |- forall _, _ => intro
           | |- ~ _ => intro
           | H : _ /\ _ |- _ => destruct H
           | H : exists _, _ |- _ => destruct H
           | H : _ <-> _ |- _ => destruct H
           | H : True |- _ => clear H
           | |- ?G => lazymatch G with _ /\ _ => coins_binary_nat_in G; split end
           | H : ?A -> _ |- _ => coins_literal_prop A; coins_literal_premise H
           | H : ?A |- _ => coins_literal_prop A; coins_literal_fact H A
           | H : _ |- _ => coins_big_hyp H
           | H : _ |- _ => coins_znum_hyp H
           | H : _ -> True |- _ => clear H
           | H : _ -> ?x = ?x |- _ => clear H
           | H : ?x = ?y |- _ => is_var x; subst x
           | H : ?x = ?y |- _ => is_var y; subst y
           | H : Some _ = Some _ |- _ => injection H; clear H; intros
           | H : (_, _) = (_, _) |- _ => injection H; clear H; intros
           | H : _ :: _ = _ :: _ |- _ => injection H; clear H; intros
           | |- true = false => exfalso
           | |- false = true => exfalso
           | H : true = false |- _ => discriminate H
           | H : false = true |- _ => discriminate H
           | H : nil = _ :: _ |- _ => discriminate H
           | H : _ :: _ = nil |- _ => discriminate H
           | H : ?l = ?p ++ _ |- _ => coins_list_literal l; coins_split_app p H
           | H : ?p ++ _ = ?l |- _ => coins_list_literal l; coins_split_app p H
           | |- context [nat_of_ascii ?c] =>
               coins_ascii_literal c; let v := eval vm_compute in (nat_of_ascii c) in change (nat_of_ascii c) with v
           | H : context [nat_of_ascii ?c] |- _ =>
               coins_ascii_literal c; let v := eval vm_compute in (nat_of_ascii c) in change (nat_of_ascii c) with v in H
           | H : (?x > ?y)%Z |- _ => apply Z.gt_lt in H
           | H : Coq.Sorting.Permutation.Permutation ?a ?b |- _ => coins_concrete a; coins_concrete b; coins_perm_hyp H
           | H : (?x >= ?y)%Z |- _ => apply Z.ge_le in H
           | H : _ |- _ => coins_parity_hyp H
           | H : nth_error ?l ?i = Some _ |- _ => coins_index_bound H l i
           | H : nth_error ?l ?i = _ |- _ => coins_numeral i; coins_list_literal l; simpl in H
           | H : Nat.modulo ?a ?d = O |- _ => coins_divisors_of H a d
           | H : Z.modulo ?a ?d = Z0, Hp : (0 < ?d)%Z |- _ => coins_zdivisors_of H Hp a d
           end;
    first [ coins_leaf
          | match goal with
            | H : forall i : nat, (i < ?k)%nat -> _ |- _ =>
                let k' := eval vm_compute in k in coins_inst_nat m H k' O
            | H : forall (i : nat) (c : ?T), (i < ?k)%nat -> _ |- _ =>
                let k' := eval vm_compute in k in coins_inst_nat_eq m H k' O
            | H : forall x, In x ?l -> _ |- _ =>
                let l' := eval vm_compute in l in coins_inst_in m H l'
            end
          | simpl in *;
            first [ coins_leaf
                  | match goal with
                    | H : False |- _ => contradiction
                    | H : ?l = ?p ++ _ |- _ => coins_list_literal l; coins_split_app p H; coins_search n
                    | H : ?p ++ _ = ?l |- _ => coins_list_literal l; coins_split_app p H; coins_search n
                    | H : _ /\ _ |- _ => destruct H; coins_search m
                    | H : exists _, _ |- _ => destruct H; coins_search m
                    | H : _ <-> _ |- _ => destruct H; coins_search m
                    | H : _ \/ _ |- _ => destruct H; coins_search n
                    | |- ?G => lazymatch G with _ :: _ = _ :: _ => idtac | (_, _) = (_, _) => idtac end;
                        coins_viable G; f_equal; coins_search n
                    | |- _ /\ _ => split; coins_search m
                    | |- _ <-> _ => split; coins_search m
                    | |- ~ _ => intro; coins_search m
                    | |- forall _, _ => intro; coins_search m
                    | |- Forall _ _ => constructor; coins_search n
                    | |- NoDup _ => constructor; coins_search n
                    | |- Sorted _ _ => constructor; coins_search n
                    | |- HdRel _ _ _ => constructor; coins_search n
                    | |- Forall2 _ _ _ => constructor; coins_search n
                    | |- _ => coins_length_cases; coins_search m
                    | H : (?i < ?k)%nat |- _ => coins_lt_cases; coins_search m
                    | H : (?i <= ?k)%nat |- _ => coins_lt_cases; coins_search m
                    | |- ?A \/ _ =>
                        first [ coins_viable A; left; solve [coins_search m] | right; coins_search n ]
                    | |- exists _ : nat, _ =>
                        tryif assert_succeeds (eexists; coins_forced_pin)
                        then first [ eexists; coins_forced_pin; solve [coins_search m] | fail 2 ]
                        else first [ eexists; coins_pin_equal; solve [coins_search m]
                                   | eexists; coins_exists_index m
                                   | coins_exists_nat m O constr:(24%nat) ]
                    | |- @ex (list ?A) _ => exists (@nil A); solve [coins_search m]
                    | |- exists _ : Z, _ => coins_exists_z m
                    | |- @ex ?T _ =>
                        tryif coins_real T then coins_exists_candidates m T
                        else match goal with
                             | |- context [@cons T ?a _] => exists a; solve [coins_search m]
                             end
                    | |- @ex (list ?A) _ => coins_exists_split m A
                    | |- exists _, _ => eexists; coins_search m
                    | |- @ex (list ?A) _ => coins_exists_inner m A
                    | H1 : (?a <= ?z)%Z, H2 : (?z <= ?b)%Z |- _ => coins_z_cases m z a b
                    | H1 : (?a < ?z)%Z, H2 : (?z <= ?b)%Z |- _ => coins_z_cases m z (a + 1)%Z b
                    | H1 : (?a <= ?z)%Z, H2 : (?z < ?b)%Z |- _ => coins_z_cases m z a (b - 1)%Z
                    | H1 : (?a < ?z)%Z, H2 : (?z < ?b)%Z |- _ => coins_z_cases m z (a + 1)%Z (b - 1)%Z
                    | H : Forall _ (_ :: _) |- _ => inversion H; clear H; subst; coins_search n
                    | H : Sorted _ (_ :: _) |- _ => inversion H; clear H; subst; coins_search n
                    | H : HdRel _ _ (_ :: _) |- _ => inversion H; clear H; subst; coins_search n
                    | H : NoDup (_ :: _) |- _ => inversion H; clear H; subst; coins_search n
                    | H : Forall2 _ (_ :: _) _ |- _ => inversion H; clear H; subst; coins_search n
                    | |- Coq.Sorting.Permutation.Permutation ?a _ => coins_concrete a; coins_perm_goal
                    | |- ?G =>
                        coins_user_inductive G;
                        first [ coins_constructors m | coins_ctor_numeral m ]
                    | H : ?G |- _ =>
                        lazymatch type of G with Prop => coins_user_inductive G end;
                        let s := coins_cons_size G in
                        inversion H; clear H; subst; coins_search_inverted m s
                    | H : ~ ?A |- _ => exfalso; apply H; clear H; coins_search m
                    | H : ?A -> ?B |- _ =>
                        lazymatch A with ~ _ => fail | _ => idtac end;
                        lazymatch type of A with Prop => coins_premise m H A end
                    | H : ~ ?A -> ?B |- _ => coins_premise m H (~ A)
                    | H : forall x : list ?A, _ |- False => coins_inst_slices m H A
                    | H : forall x : nat, _ |- False => coins_inst_below m H
                    | H : forall x : nat, _ |- False => coins_inst_divisors m H
                    | H : forall x : Z, _ |- False => coins_inst_divisors m H
                    | H : forall x : nat, _ |- False => coins_inst_indexed m H
                    | H : forall x : ?T, _ |- False =>
                        let s := type of T in lazymatch s with Prop => fail | _ => coins_inst_data m H T end
                    end ] ]
  end
with coins_premise m H A :=
  let HA := fresh "HA" in
  tryif coins_literal_prop A then (assert (HA : A) by coins_literal_prove)
  else tryif coins_closed A then (assert (HA : A) by (coins_clear_all; solve [coins_search m]))
  else (assert (HA : A) by (clear H; solve [coins_search m]));
  specialize (H HA); coins_search m
with coins_inst_data m H T :=
  coins_new_instance H T; repeat coins_new_instance H T; clear H; coins_search m
with coins_exists_nat m k bound :=
  lazymatch bound with
  | O => fail
  | S ?b => first [ exists k; coins_hopeful; solve [coins_search m] | coins_exists_nat m (S k) b ]
  end
with coins_exists_index m :=
  match goal with
  | |- context [nth_error ?l ?e = Some ?v] =>
      is_evar e; coins_list_literal l; coins_concrete l; coins_concrete v;
      let n := eval vm_compute in (length l) in
      let w := eval vm_compute in v in
      coins_index_each m e l w O n
  end
with coins_index_each m e l w k n :=
  lazymatch n with
  | O => fail
  | S ?b =>
      first [ let x := eval vm_compute in (nth_error l k) in
              lazymatch x with Some ?y => constr_eq y w end;
              unify e k; solve [coins_search m]
            | coins_index_each m e l w (S k) b ]
  end
with coins_exists_candidates m T :=
  let acc := fresh "acc" in
  pose (acc := @nil T);
  let add a := let l := eval cbv delta [acc] in acc in
               assert_fails (idtac; coins_member a l); clear acc; pose (acc := a :: l) in
  repeat (idtac; match goal with
                 | |- context [@eq T ?a _] => add a
                 | |- context [@eq T _ ?a] => add a
                 | |- context [@cons T ?a _] => add a
                 end);
  let l := eval cbv delta [acc] in acc in
  clear acc; let r := coins_reversed l (@nil T) in coins_exists_each m r
with coins_exists_each m l :=
  lazymatch l with ?a :: ?t => first [ exists a; solve [coins_search m] | coins_exists_each m t ] end
with coins_exists_z m :=
  first [ eexists; coins_pin_evar; solve [coins_search m]
        | match goal with |- context [@cons Z ?a _] => exists a; solve [coins_search m] end
        | match goal with |- context [Zpos ?p] => exists (Zpos p); solve [coins_search m] end
        | match goal with H : context [Zpos ?p] |- _ => exists (Zpos p); solve [coins_search m] end
        | match goal with |- context [Zneg ?p] => exists (Zneg p); solve [coins_search m] end
        | exists 0%Z; solve [coins_search m] | exists 1%Z; solve [coins_search m]
        | exists (-1)%Z; solve [coins_search m] ]
with coins_ctor_numeral m :=
  lazymatch goal with
  | |- ?P ?x =>
      coins_numeral x;
      refine (@eq_ind _ _ P _ x _);
      [ coins_constructors m | coins_leaf ]
  end
with coins_constructors m :=
  let s := lazymatch goal with |- ?G => coins_cons_size G end in
  first [ solve [constructor 1; coins_search_smaller m s]
        | solve [constructor 2; coins_search_smaller m s]
        | solve [constructor 3; coins_search_smaller m s]
        | solve [constructor 4; coins_search_smaller m s] ]
with coins_search_inverted m s :=
  tryif (idtac; match goal with
               | H : ?G |- _ =>
                   lazymatch type of G with Prop => coins_user_inductive G end;
                   let t := coins_cons_size G in assert_fails (idtac; coins_smaller t s)
               end)
  then coins_search m else coins_search (S m)
with coins_search_smaller m s :=
  let t := lazymatch goal with |- ?G => coins_cons_size G end in
  tryif coins_smaller t s then coins_search (S m) else coins_search m
with coins_exists_split m A :=
  let try_slice := ltac:(fun p => exists p; coins_hopeful; solve [coins_search m]) in
  match goal with
  | |- context [@eq (list A) ?l (@app A _ _)] => coins_first_prefix l (S O) try_slice
  | |- context [@eq (list A) (@app A _ _) ?l] => coins_first_prefix l (S O) try_slice
  end
with coins_exists_inner m A :=
  let try_slice := ltac:(fun p => exists p; coins_hopeful; solve [coins_search m]) in
  match goal with
  | |- context [@eq (list A) ?l (@app A _ _)] => coins_exists_slice l try_slice
  | |- context [@eq (list A) (@app A _ _) ?l] => coins_exists_slice l try_slice
  end
with coins_inst_slices m H A :=
  let add := ltac:(fun a => coins_add_refuting H a) in
  match type of H with
  | context [@eq (list A) ?l _] => coins_list_literal l; progress (coins_each_slice l add)
  | context [@eq (list A) _ ?l] => coins_list_literal l; progress (coins_each_slice l add)
  end;
  clear H; coins_search m
with coins_inst_below m H :=
  match type of H with
  | context [(_ < ?b)%nat] => coins_refuting_below H b
  | context [(_ <= ?b)%nat] => coins_refuting_below H (S b)
  end;
  clear H; coins_search m
with coins_inst_divisors m H :=
  match type of H with
  | context [Nat.modulo ?k _] =>
      coins_numeral k; coins_nat_divisors_listable k; let l := eval vm_compute in (coins_ndivisors k) in
      progress (coins_each_in l ltac:(fun a => coins_add_refuting H a))
  | context [Nat.modulo (coins_big_nat ?z) _] =>
      coins_numeral z; coins_z_pairs_listable z;
      let l := eval vm_compute in (coins_zdivisor_pairs z) in
      progress (coins_each_in l ltac:(fun a => let n := coins_nat_of_z a in coins_add_refuting H n))
  | context [Z.divide _ ?k] => coins_zdivisor_instances H k
  | context [Z.modulo ?k _] => coins_zdivisor_instances H k
  end;
  clear H; coins_search m
with coins_inst_indexed m H :=
  match type of H with
  | context [nth_error ?l _] =>
      coins_list_literal l; coins_concrete l;
      let n := eval vm_compute in (length l) in coins_smaller n 65;
      progress (coins_each_below n ltac:(fun a =>
        let x := eval vm_compute in (nth_error l a) in
        lazymatch x with
        | Some ?v =>
            first [ coins_add_refuting_term (H a v eq_refl)
                  | coins_add_refuting_term (H a eq_refl)
                  | coins_smaller n 9;
                    coins_each_below n ltac:(fun b => coins_add_refuting_term (H a b _ _ eq_refl eq_refl)) ]
        end))
  end;
  clear H; coins_search m
with coins_z_cases m z lo hi :=
  is_var z;
  let lo' := eval vm_compute in lo in
  let d := eval vm_compute in (Z.to_nat (hi - lo)) in
  let small := eval vm_compute in (Nat.leb d 24) in
  lazymatch small with true => coins_z_enum z lo' d; coins_search m end
with coins_inst_nat m H n k :=
  lazymatch n with
  | O => fail
  | S ?b => first [ let Hk := fresh "Hk" in pose proof (H k ltac:(simpl; lia)) as Hk; clear H; simpl in Hk; solve [coins_search m]
                  | coins_inst_nat m H b (S k) ]
  end
with coins_inst_nat_eq m H n k :=
  lazymatch n with
  | O => fail
  | S ?b => first [ let Hk := fresh "Hk" in pose proof (H k _ ltac:(simpl; lia) eq_refl) as Hk; clear H; solve [coins_search m]
                  | coins_inst_nat_eq m H b (S k) ]
  end
with coins_inst_in m H l :=
  lazymatch l with nil => fail | _ :: _ => coins_inst_each H l; clear H; coins_search m end.

Ltac coins_crush := solve [coins_search constr:(12%nat)].
