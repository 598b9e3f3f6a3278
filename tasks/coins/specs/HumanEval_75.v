(* True iff a is the product of exactly three primes, counted with multiplicity. *)
Local Open Scope Z_scope.
(* The number of prime factors of n, with multiplicity, found by trial division from d. *)
Fixpoint prime_factor_count (fuel : nat) (d n : Z) : nat :=
  match fuel with
  | O => O
  | S f =>
    if n <? 2 then O else if n <? d * d then 1%nat
    else if n mod d =? 0 then S (prime_factor_count f d (n / d)) else prime_factor_count f (d + 1) n
  end.
Definition is_multiply_prime_pre (a : Z) : Prop := 1 <= a.
Definition is_multiply_prime_spec (a : Z) (r : bool) : Prop :=
  r = Nat.eqb (prime_factor_count (S (Z.to_nat a)) 2 a) 3.
