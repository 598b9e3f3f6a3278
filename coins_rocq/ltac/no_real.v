(* The Ltac of coins_rocq.ladder_real.NO_REAL_LTAC, sent with the prelude sentence by sentence. *)

Ltac coins_real_ints := fail.
