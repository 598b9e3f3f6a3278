(* The Ltac of coins_rocq.ladder_pinned.NAME_NUMERALS_LTAC, sent with the prelude sentence by sentence. *)

Ltac coins_name_arg a :=
  lazymatch type of a with
  | nat =>
      tryif is_var a then idtac else
      lazymatch eval vm_compute in (Coq.Init.Nat.leb 64 a) with
      | true => let k := fresh "coins_k" in set (k := a)
      | _ => idtac
      end
  | _ => idtac
  end.

Ltac coins_name_args t :=
  lazymatch t with
  | Coq.Init.Logic.not ?p => coins_name_args p
  | ?f ?a => coins_name_args f; coins_name_arg a
  | _ => idtac
  end.

Ltac coins_name_numerals := lazymatch goal with |- ?g => coins_name_args g end.
