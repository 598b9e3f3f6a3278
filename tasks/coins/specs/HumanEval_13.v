(* r is a positive common divisor of a and b, and no larger number divides both. *)
Local Open Scope Z_scope.
Fixpoint count_from (lo : Z) (n : nat) : list Z :=
  match n with O => nil | S m => lo :: count_from (lo + 1) m end.
Definition range (lo hi : Z) : list Z := count_from lo (Z.to_nat (hi - lo + 1)).

Definition divides (d n : Z) : bool := n mod d =? 0.
Definition greatest_common_divisor_spec (a b r : Z) : Prop :=
  0 < r /\ divides r a && divides r b = true /\
  forallb (fun d => negb (divides d a && divides d b)) (range (r + 1) (Z.abs a + Z.abs b)) = true.
