(* How many times the digit 7 is written in the numbers 0 <= i < n divisible by 11 or by 13. *)
Local Open Scope Z_scope.
Fixpoint count_from (lo : Z) (n : nat) : list Z :=
  match n with O => nil | S m => lo :: count_from (lo + 1) m end.
Fixpoint sevens (fuel : nat) (k : Z) : Z :=
  match fuel with
  | O => 0
  | S f => let (q, d) := Z.div_eucl k 10 in (if d =? 7 then 1 else 0) + (if q =? 0 then 0 else sevens f q)
  end.
(* The multiples of d in [0, n). *)
Definition multiples_below (d n : Z) : list Z := map (Z.mul d) (count_from 0 (Z.to_nat ((n + d - 1) / d))).
(* Each number below n divisible by 11 or 13 once: the multiples of 13 that 11 does not divide,
   then the multiples of 11. *)
Definition fizz_buzz_spec (n r : Z) : Prop :=
  r = fold_right Z.add 0 (map (sevens 64)
        (filter (fun i => negb (i mod 11 =? 0)) (multiples_below 13 n) ++ multiples_below 11 n)).
