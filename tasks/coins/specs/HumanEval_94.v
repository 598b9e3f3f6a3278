(* The sum of the decimal digits of the largest prime in lst (0 when lst holds no prime). *)
Local Open Scope Z_scope.
(* Trial division by d, d + 1, ... while d * d <= n, stopping at the first divisor. *)
Fixpoint no_divisor_from (fuel : nat) (d n : Z) : bool :=
  match fuel with
  | O => true
  | S f => if n <? d * d then true else if n mod d =? 0 then false else no_divisor_from f (d + 1) n
  end.
Definition is_prime (n : Z) : bool := (2 <=? n) && no_divisor_from (Z.to_nat (Z.sqrt n)) 2 n.
Fixpoint digit_sum (fuel : nat) (n : Z) : Z :=
  match fuel with O => 0 | S f => if n <? 10 then n else n mod 10 + digit_sum f (n / 10) end.
Definition skjkasdkd_spec (lst : list Z) (r : Z) : Prop :=
  r = digit_sum 64 (fold_right Z.max 0 (filter is_prime lst)).
