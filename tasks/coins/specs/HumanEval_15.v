(* The numbers 0, 1, ..., n in decimal, separated by single spaces. *)
From Coq Require Import DecimalString.
Definition decimal (k : nat) : string := NilEmpty.string_of_uint (N.to_uint (N.of_nat k)).
Definition string_sequence_pre (n : Z) : Prop := (0 <= n)%Z.
Definition string_sequence_spec (n : Z) (r : string) : Prop :=
  r = String.concat " " (map decimal (seq 0 (S (Z.to_nat n)))).
