(* The Ltac of coins_rocq.ladder_memo.MEMO_LTAC, sent with the prelude sentence by sentence. *)

Ltac coins_memo_side := first [ eassumption | coins_leaf ].

Ltac coins_memo_ctor :=
  first [ solve [econstructor 1; coins_memo_side] | solve [econstructor 2; coins_memo_side]
        | solve [econstructor 3; coins_memo_side] | solve [econstructor 4; coins_memo_side]
        | solve [econstructor 5; coins_memo_side] | solve [econstructor 6; coins_memo_side] ].

Ltac coins_memo_unique P k v :=
  let U := fresh "U" in
  assert (U : forall x, P k x -> x = v)
    by (let x := fresh "x" in let Hx := fresh "Hx" in intros x Hx; inversion Hx; subst;
        repeat match goal with
               | Hi : P ?j ?y, Ui : forall x, P ?j x -> x = _ |- _ => is_var y; apply Ui in Hi; subst y
               end; coins_leaf).

Ltac coins_memo_up P k N unique :=
  try (let M := fresh "M" in eassert (M : P k _) by coins_memo_ctor; simpl in M;
       lazymatch unique with
       | true => lazymatch type of M with P _ ?v => try coins_memo_unique P k v end
       | false => idtac
       end);
  let more := eval vm_compute in (Nat.ltb k N) in
  lazymatch more with true => coins_memo_up P (S k) N unique | false => idtac end.

Ltac coins_memo :=
  lazymatch goal with
  | |- ~ ?P ?N ?w =>
      coins_numeral N; coins_user_inductive (P N w); coins_memo_up P O N true;
      let H := fresh "H" in intro H;
      match goal with U : forall x, P N x -> x = _ |- _ => apply U in H; coins_leaf end
  | |- ?P ?N ?v =>
      coins_numeral N; coins_user_inductive (P N v); coins_memo_up P O N false; simpl; eassumption
  end.
