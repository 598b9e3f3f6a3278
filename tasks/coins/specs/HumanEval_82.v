(* True iff the length of the string is a prime number. *)
Local Open Scope Z_scope.
Fixpoint count_from (lo : Z) (n : nat) : list Z :=
  match n with O => nil | S m => lo :: count_from (lo + 1) m end.
Definition range (lo hi : Z) : list Z := count_from lo (Z.to_nat (hi - lo + 1)).
Definition is_prime (n : Z) : bool :=
  (2 <=? n) && forallb (fun d => negb (n mod d =? 0)) (range 2 (Z.sqrt n)).
Definition prime_length_spec (s : string) (r : bool) : Prop := r = is_prime (Z.of_nat (String.length s)).
