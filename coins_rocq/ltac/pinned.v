(* The Ltac of coins_rocq.ladder_pinned.PINNED_LTAC, sent with the prelude sentence by sentence. *)

Ltac coins_open := repeat match goal with |- _ /\ _ => split | |- @ex _ _ => eexists end.

Ltac coins_nat_value t tac := let v := eval vm_compute in t in coins_numeral v; tac v.

Ltac coins_value t tac := let v := eval vm_compute in t in coins_closed v; tac v.

Ltac coins_head t := lazymatch t with ?f _ => coins_head f | _ => t end.

Ltac coins_constructed p := let h := coins_head p in is_constructor h.

Ltac coins_pattern p := has_evar p; first [let h := coins_head p in is_evar h | coins_constructed p].

Ltac coins_pin_pattern tac t p :=
  coins_pattern p; assert_fails (has_evar t); coins_value t ltac:(fun v => tac p v).

Ltac coins_pin_with tac :=
  match goal with
  | |- @eq nat ?e ?t => is_evar e; assert_fails (has_evar t); coins_nat_value t ltac:(fun v => tac e v)
  | |- @eq _ ?t ?p => coins_pin_pattern tac t p
  | |- @eq _ ?p ?t => coins_pin_pattern tac t p
  end.

Ltac coins_pinnable := coins_pin_with ltac:(fun _ _ => idtac).

Ltac coins_pinned_destruct :=
  repeat match goal with H : _ /\ _ |- _ => destruct H | H : @ex _ _ |- _ => destruct H end.

Ltac coins_pin_goal := coins_pin_with ltac:(fun e v => unify e v); reflexivity.

Ltac coins_inject_with H t p :=
  coins_constructed p; assert_fails (coins_closed p); assert_fails (has_evar t);
  coins_value t ltac:(fun v =>
    let E := fresh in assert (E : t = v) by (vm_compute; reflexivity);
    rewrite E in H; clear E;
    first [discriminate H | injection H; clear H; intros; subst]).

Ltac coins_pinned_inject :=
  match goal with
  | H : ?t = ?p |- _ => coins_inject_with H t p
  | H : ?p = ?t |- _ => coins_inject_with H t p
  end.

Ltac coins_pinned_prune :=
  coins_pinned_destruct;
  repeat match goal with
         | H : @eq nat ?x ?t |- _ => is_var x; coins_nat_value t ltac:(fun _ => subst x)
         | H : ?x = ?t |- _ => is_var x; coins_closed t; subst x
         | |- _ => coins_pinned_inject
         end;
  repeat match goal with
         | H : @eq nat ?a ?b |- _ =>
             let v := eval vm_compute in (Nat.eqb a b) in
             lazymatch v with true => clear H | false => vm_compute in H; discriminate H end
         end.

Ltac coins_pinned :=
  repeat intro;
  lazymatch goal with
  | H : context [@ex nat _] |- False =>
      coins_pinned_destruct;
      first [match goal with H : @eq nat ?x ?t |- _ => is_var x; coins_nat_value t ltac:(fun _ => idtac) end
            | coins_pinned_inject];
      coins_pinned_prune;
      repeat match goal with H : _ \/ _ |- _ => progress (vm_compute in H) end;
      repeat (match goal with H : _ \/ _ |- _ => destruct H end; coins_pinned_prune);
      solve [coins_crush]
  | |- context [@ex nat _] =>
      assert_fails (coins_open; first [coins_pinnable; fail 1 | idtac]);
      coins_open; try coins_pin_goal; solve [coins_crush]
  end.
