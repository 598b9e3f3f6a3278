(* The Ltac of coins_rocq.ladder_perm.PERM_LTAC, sent with the prelude sentence by sentence. *)

(* Permutations of concrete lists decided by computation: a list is a permutation of another when
   removing its elements one by one from the other, each once, leaves nothing. *)

Fixpoint coins_remove_one {A : Type} (d : forall x y : A, {x = y} + {x <> y}) (x : A) (l : list A)
  : option (list A) :=
  match l with
  | nil => None
  | y :: t => if d x y then Some t else option_map (cons y) (coins_remove_one d x t)
  end.

Fixpoint coins_perm_b {A : Type} (d : forall x y : A, {x = y} + {x <> y}) (l1 l2 : list A) : bool :=
  match l1 with
  | nil => match l2 with nil => true | _ :: _ => false end
  | x :: t => match coins_remove_one d x l2 with Some r => coins_perm_b d t r | None => false end
  end.

Definition coins_remove_one_some : forall (A : Type) (d : forall x y : A, {x = y} + {x <> y}) x l r,
  coins_remove_one d x l = Some r -> Coq.Sorting.Permutation.Permutation l (x :: r) :=
  ltac:(intros A d x l; induction l as [|y t IH]; intros r E; simpl in E;
    [ discriminate E
    | destruct (d x y) as [->|_];
      [ injection E as <-; apply Coq.Sorting.Permutation.Permutation_refl
      | destruct (coins_remove_one d x t) as [r'|]; simpl in E; [|discriminate E];
        injection E as <-;
        apply (Coq.Sorting.Permutation.perm_trans (l' := y :: x :: r'));
        [ apply Coq.Sorting.Permutation.perm_skip, IH; reflexivity
        | apply Coq.Sorting.Permutation.perm_swap ] ] ]).

Definition coins_remove_one_none : forall (A : Type) (d : forall x y : A, {x = y} + {x <> y}) x l,
  coins_remove_one d x l = None -> ~ In x l :=
  ltac:(intros A d x l; induction l as [|y t IH]; intros E; simpl in E;
    [ intros []
    | destruct (d x y) as [_|Hne]; [ discriminate E | ];
      destruct (coins_remove_one d x t); simpl in E; [ discriminate E | ];
      intros [Hy|Ht]; [ exact (Hne (eq_sym Hy)) | exact (IH eq_refl Ht) ] ]).

Definition coins_perm_b_sound : forall (A : Type) (d : forall x y : A, {x = y} + {x <> y}) l1 l2,
  coins_perm_b d l1 l2 = true -> Coq.Sorting.Permutation.Permutation l1 l2 :=
  ltac:(intros A d l1; induction l1 as [|x t IH]; intros l2 E; simpl in E;
    [ destruct l2; [ apply Coq.Sorting.Permutation.perm_nil | discriminate E ]
    | destruct (coins_remove_one d x l2) as [r|] eqn:R; [|discriminate E];
      apply (Coq.Sorting.Permutation.perm_trans (l' := x :: r));
      [ apply Coq.Sorting.Permutation.perm_skip, IH, E
      | apply Coq.Sorting.Permutation.Permutation_sym, (coins_remove_one_some A d x l2 r R) ] ]).

Definition coins_perm_b_complete : forall (A : Type) (d : forall x y : A, {x = y} + {x <> y}) l1 l2,
  Coq.Sorting.Permutation.Permutation l1 l2 -> coins_perm_b d l1 l2 = true :=
  ltac:(intros A d l1; induction l1 as [|x t IH]; intros l2 P; simpl;
    [ rewrite (Coq.Sorting.Permutation.Permutation_nil P); reflexivity
    | destruct (coins_remove_one d x l2) as [r|] eqn:R;
      [ apply IH; apply (Coq.Sorting.Permutation.Permutation_cons_inv (a := x));
        exact (Coq.Sorting.Permutation.perm_trans P (coins_remove_one_some A d x l2 r R))
      | exfalso; apply (coins_remove_one_none A d x l2 R);
        exact (Coq.Sorting.Permutation.Permutation_in x P (or_introl eq_refl)) ] ]).

Definition coins_prod_dec : forall (A B : Type), (forall x y : A, {x = y} + {x <> y}) ->
  (forall x y : B, {x = y} + {x <> y}) -> forall p q : A * B, {p = q} + {p <> q} :=
  ltac:(intros A B da db [a b] [c e]; destruct (da a c) as [->|Ha];
    [ destruct (db b e) as [->|Hb]; [ left; reflexivity | right; intros H; injection H as H; exact (Hb H) ]
    | right; intros H; injection H as H _; exact (Ha H) ]).

Ltac coins_eq_dec T :=
  lazymatch T with
  | nat => constr:(Nat.eq_dec)
  | Z => constr:(Z.eq_dec)
  | bool => constr:(Bool.bool_dec)
  | ascii => constr:(Ascii.ascii_dec)
  | string => constr:(String.string_dec)
  | list ?A => let d := coins_eq_dec A in constr:(List.list_eq_dec d)
  | prod ?A ?B => let da := coins_eq_dec A in let db := coins_eq_dec B in constr:(coins_prod_dec A B da db)
  end.

Ltac coins_perm_goal :=
  lazymatch goal with
  | |- @Coq.Sorting.Permutation.Permutation ?T ?a ?b =>
      let d := coins_eq_dec T in
      let a' := eval vm_compute in a in
      tryif (lazymatch b with _ :: ?e => is_evar e end)
      then
        lazymatch b with
        | ?x :: ?e =>
            let r := eval vm_compute in (coins_remove_one d x a') in
            lazymatch r with Some ?r' => unify e r'; change a with a'; exact (coins_remove_one_some T d x a' r' eq_refl) end
        end
      else
        let b' := eval vm_compute in b in
        change (Coq.Sorting.Permutation.Permutation a' b');
        exact (coins_perm_b_sound T d a' b' eq_refl)
  end.

Ltac coins_perm_hyp H :=
  lazymatch type of H with
  | @Coq.Sorting.Permutation.Permutation ?T ?a ?b =>
      let d := coins_eq_dec T in
      let v := eval vm_compute in (coins_perm_b d a b) in
      lazymatch v with
      | false => exfalso; exact (Bool.diff_true_false (eq_trans (eq_sym (coins_perm_b_complete T d a b H)) (eq_refl : coins_perm_b d a b = false)))
      | true => clear H
      end
  end.
