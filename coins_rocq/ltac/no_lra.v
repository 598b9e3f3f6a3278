(* The Ltac of coins_rocq.ladder_real.NO_LRA_LTAC, sent with the prelude where the signature has no R. *)

Ltac coins_real T := fail.

Ltac coins_lra := fail.

Ltac coins_pin_real := fail.
