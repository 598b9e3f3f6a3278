(* r is a prime dividing n and no larger prime divides n. *)
Local Open Scope Z_scope.
Fixpoint count_from (lo : Z) (n : nat) : list Z :=
  match n with O => nil | S m => lo :: count_from (lo + 1) m end.
Definition range (lo hi : Z) : list Z := count_from lo (Z.to_nat (hi - lo + 1)).
Definition is_prime (n : Z) : bool :=
  (2 <=? n) && forallb (fun d => negb (n mod d =? 0)) (range 2 (Z.sqrt n)).

Definition largest_prime_factor_pre (n : Z) : Prop := 1 < n /\ is_prime n = false.
Definition largest_prime_factor_spec (n r : Z) : Prop :=
  is_prime r = true /\ n mod r = 0 /\
  forallb (fun d => if n mod d =? 0 then negb (is_prime d) else true) (range (r + 1) n) = true.
