(* How many numbers are greater than 10 and have an odd first and an odd last decimal digit. *)
Local Open Scope Z_scope.
Fixpoint leading_digit (fuel : nat) (n : Z) : Z :=
  match fuel with O => n | S f => if n <? 10 then n else leading_digit f (n / 10) end.
Definition special (n : Z) : bool := (10 <? n) && Z.odd (leading_digit 64 n) && Z.odd (n mod 10).
Definition specialFilter_spec (nums : list Z) (r : Z) : Prop := r = Z.of_nat (length (filter special nums)).
