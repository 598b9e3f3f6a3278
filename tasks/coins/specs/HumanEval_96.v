(* The primes below n, in increasing order. *)
Local Open Scope Z_scope.
Fixpoint count_from (lo : Z) (n : nat) : list Z :=
  match n with O => nil | S m => lo :: count_from (lo + 1) m end.
Definition range (lo hi : Z) : list Z := count_from lo (Z.to_nat (hi - lo + 1)).
Definition is_prime (n : Z) : bool :=
  (2 <=? n) && forallb (fun d => negb (n mod d =? 0)) (range 2 (Z.sqrt n)).
Definition count_up_to_spec (n : Z) (r : list Z) : Prop := r = filter is_prime (range 2 (n - 1)).
