(* r is a prime dividing n and no larger prime divides n: n with every factor up to r divided
   out is 1. *)
Local Open Scope Z_scope.
Fixpoint count_from (lo : Z) (n : nat) : list Z :=
  match n with O => nil | S m => lo :: count_from (lo + 1) m end.
Definition range (lo hi : Z) : list Z := count_from lo (Z.to_nat (hi - lo + 1)).
Definition is_prime (n : Z) : bool :=
  (2 <=? n) && forallb (fun d => negb (n mod d =? 0)) (range 2 (Z.sqrt n)).
(* m divided by d as often as d divides it (at most log2 m times). *)
Fixpoint divide_out_from (fuel : nat) (d m : Z) : Z :=
  match fuel with
  | O => m
  | S f => if (1 <? m) && (m mod d =? 0) then divide_out_from f d (m / d) else m
  end.
Definition divide_out (d m : Z) : Z := divide_out_from (Z.to_nat (Z.log2 m + 1)) d m.
(* m with every factor d, 2 <= d <= hi, divided out. *)
Definition rough_part (hi m : Z) : Z := fold_left (fun m d => divide_out d m) (range 2 hi) m.

Definition largest_prime_factor_pre (n : Z) : Prop := 1 < n /\ is_prime n = false.
Definition largest_prime_factor_spec (n r : Z) : Prop :=
  is_prime r = true /\ n mod r = 0 /\ rough_part r n = 1.
