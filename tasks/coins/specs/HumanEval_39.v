(* r is a prime Fibonacci number and exactly n - 1 prime Fibonacci numbers are smaller than r. *)
Local Open Scope Z_scope.
(* Trial division by d, d + 2, d + 4, ... while d * d <= n, stopping at the first divisor. *)
Fixpoint no_odd_divisor_from (fuel : nat) (d n : Z) : bool :=
  match fuel with
  | O => true
  | S f => if n <? d * d then true else if n mod d =? 0 then false else no_odd_divisor_from f (d + 2) n
  end.
Definition is_prime (n : Z) : bool :=
  if n <? 2 then false else if n =? 2 then true else
  if n mod 2 =? 0 then false else no_odd_divisor_from (Z.to_nat (Z.sqrt n)) 3 n.
(* The Fibonacci numbers 1, 2, 3, 5, ... below bound (1 listed once). *)
Fixpoint fibs_below (fuel : nat) (a b bound : Z) : list Z :=
  match fuel with
  | O => nil
  | S f => if a <? bound then a :: fibs_below f b (a + b) bound else nil
  end.
Definition prime_fib_pre (n : Z) : Prop := 1 <= n.
Definition prime_fib_spec (n r : Z) : Prop :=
  (if existsb (Z.eqb r) (fibs_below 400 1 2 (r + 1)) then is_prime r else false) = true /\
  Z.of_nat (length (filter is_prime (fibs_below 400 1 2 r))) = n - 1.
