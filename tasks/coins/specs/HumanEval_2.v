(* The decimal part: what is left after removing the integer part of a positive number. *)
From Coq Require Import QArith Qround.
Local Open Scope Q_scope.
Definition truncate_number_pre (number : Q) : Prop := 0 <= number.
Definition truncate_number_spec (number r : Q) : Prop :=
  0 <= r /\ r < 1 /\ r == number - inject_Z (Qfloor number).
