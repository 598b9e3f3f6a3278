(* The Ltac of coins_rocq.ladder_sorted.SORTED_LTAC, sent with the prelude sentence by sentence. *)

Definition coins_sorted_unique : forall (A : Type) (R : A -> A -> Prop),
  (forall x y, R x y -> R y x -> x = y) -> (forall x y z, R x y -> R y z -> R x z) ->
  forall l1 l2 : list A, Sorted R l1 -> Sorted R l2 -> Coq.Sorting.Permutation.Permutation l1 l2 -> l1 = l2 :=
  ltac:(intros A R anti trans l1; induction l1 as [|a l1 IH]; intros l2 S1 S2 P;
    [ symmetry; exact (Coq.Sorting.Permutation.Permutation_nil P)
    | destruct l2 as [|b l2];
      [ pose proof (Coq.Sorting.Permutation.Permutation_nil (Coq.Sorting.Permutation.Permutation_sym P)) as E; discriminate E
      | pose proof (@Sorted_StronglySorted A R trans _ S1) as T1;
        pose proof (@Sorted_StronglySorted A R trans _ S2) as T2;
        inversion T1 as [|? ? U1 F1]; inversion T2 as [|? ? U2 F2]; subst;
        pose proof (Coq.Sorting.Permutation.Permutation_in _ P (or_introl eq_refl)) as Ha;
        pose proof (Coq.Sorting.Permutation.Permutation_in _ (Coq.Sorting.Permutation.Permutation_sym P) (or_introl eq_refl)) as Hb;
        assert (E : a = b) by (destruct Ha as [Ha|Ha]; [symmetry; exact Ha|];
          destruct Hb as [Hb|Hb]; [exact Hb|];
          apply anti; [ exact (proj1 (Forall_forall _ _) F1 b Hb)
                      | exact (proj1 (Forall_forall _ _) F2 a Ha) ]);
        subst b; f_equal; apply IH;
        [ exact (StronglySorted_Sorted U1) | exact (StronglySorted_Sorted U2)
        | exact (Coq.Sorting.Permutation.Permutation_cons_inv P) ] ] ]).

Ltac coins_perm_split a s A tac :=
  lazymatch s with
  | a :: ?t => tac (@nil A) t
  | ?b :: ?t => coins_perm_split a t A ltac:(fun s1 s2 => tac (b :: s1) s2)
  end.

Ltac coins_perm :=
  lazymatch goal with
  | |- Coq.Sorting.Permutation.Permutation nil nil => apply Coq.Sorting.Permutation.perm_nil
  | |- @Coq.Sorting.Permutation.Permutation ?A (?a :: ?t) ?s =>
      coins_perm_split a s A ltac:(fun s1 s2 =>
        change s with (s1 ++ a :: s2); apply Coq.Sorting.Permutation.Permutation_cons_app; simpl; coins_perm)
  end.

Ltac coins_order_prove := cbv beta in *; first [lia | coins_crush].

Ltac coins_order_holds R a b := assert_succeeds (assert (R a b) by (coins_clear_all; coins_order_prove)).

Ltac coins_insert R a s tac :=
  lazymatch s with
  | nil => tac (a :: s)
  | ?b :: ?t =>
      tryif coins_order_holds R a b then tac (a :: s)
      else coins_insert R a t ltac:(fun r => tac (b :: r))
  end.

Ltac coins_sort R l tac :=
  lazymatch l with
  | nil => tac l
  | ?a :: ?t => coins_sort R t ltac:(fun s => coins_insert R a s tac)
  end.

Ltac coins_sorted_parts C A tac :=
  let R := lazymatch C with context [Sorted ?R nil] => R end in
  lazymatch C with
  | context [Coq.Sorting.Permutation.Permutation ?L nil] => tac L R
  | context [Coq.Sorting.Permutation.Permutation nil ?L] => tac L R
  | _ => match C with context [?L] => lazymatch type of L with list A => lazymatch L with _ :: _ => tac L R end end end
  end.

Ltac coins_sorted_body :=
  repeat match goal with |- _ /\ _ => split end;
  first [ lazymatch goal with |- Coq.Sorting.Permutation.Permutation _ _ => vm_compute; coins_perm end | coins_crush ].

Ltac coins_sorted_refute A R L S s :=
  repeat match goal with H : _ /\ _ |- _ => destruct H end;
  let E := fresh "E" in let HL := fresh "HL" in
  assert (HL : Coq.Sorting.Permutation.Permutation L S) by coins_perm;
  match goal with
  | Hs : Sorted R s |- _ =>
      assert (E : S = s) by (
        apply (coins_sorted_unique A R);
        [ intros; coins_order_prove | intros; coins_order_prove
        | coins_clear_all; coins_crush | exact Hs
        | eapply Coq.Sorting.Permutation.perm_trans; [ exact (Coq.Sorting.Permutation.Permutation_sym HL) |
          first [ assumption | apply Coq.Sorting.Permutation.Permutation_sym; assumption ] ] ]);
      subst s; clear Hs HL; repeat match goal with H : Coq.Sorting.Permutation.Permutation _ _ |- _ => clear H end;
      coins_crush
  end.

Ltac coins_sorted :=
  repeat intro; cbv zeta in *;
  lazymatch goal with
  | |- @ex (list ?A) ?F =>
      let C := eval cbv beta in (F (@nil A)) in
      coins_sorted_parts C A ltac:(fun L R => let L' := eval vm_compute in L in
        coins_sort R L' ltac:(fun S => exists S; coins_sorted_body))
  | H : @ex (list ?A) ?F |- False =>
      let C := eval cbv beta in (F (@nil A)) in
      let s := fresh "s" in let Hs := fresh "Hs" in
      coins_sorted_parts C A ltac:(fun L R => let L' := eval vm_compute in L in
        coins_sort R L' ltac:(fun S => destruct H as [s Hs]; coins_sorted_refute A R L' S s))
  end.
