(* The Ltac of coins_rocq.ladder_interval.INTERVAL_LTAC, sent with the prelude sentence by sentence. *)

Definition coins_within {T : Type} (near : T -> T -> Prop) (r o : T) : Prop := near r o.

Ltac coins_within_close :=
  lazymatch goal with
  | |- @coins_within ?T _ ?r ?o =>
      try (is_evar r; unify r o);
      unfold coins_within; cbv beta;
      tryif coins_real T then (simpl; coins_lra) else (vm_compute; reflexivity)
  end.

Ltac coins_interval :=
  lazymatch goal with
  | |- ~ ?G =>
      lazymatch G with context [coins_within] => idtac end;
      unfold coins_within; cbv beta; coins_crush
  | |- ?G =>
      lazymatch G with context [coins_within] => idtac end;
      repeat (idtac; lazymatch goal with |- ex _ => eexists end);
      split;
      [ solve [coins_search constr:(12%nat)]
      | repeat (idtac; lazymatch goal with |- _ /\ _ => split end); coins_within_close ]
  end.
