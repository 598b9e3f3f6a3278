(* The sum of the decimal digits of N, written in binary (digits 0 and 1, no leading zero except
   for "0" itself). *)
Local Open Scope Z_scope.
Fixpoint digit_sum (fuel : nat) (n : Z) : Z :=
  match fuel with O => 0 | S f => if n <? 10 then n else n mod 10 + digit_sum f (n / 10) end.
Definition bit (c : ascii) : Z := Z.of_nat (nat_of_ascii c) - 48.
Definition read_binary (cs : list ascii) : Z := fold_left (fun acc c => 2 * acc + bit c) cs 0.
Definition solve_pre (N : Z) : Prop := 0 <= N.
Definition solve_spec (N : Z) (r : string) : Prop :=
  let cs := list_ascii_of_string r in
  ((read_binary cs =? digit_sum 64 N) && forallb (fun c => (bit c =? 0) || (bit c =? 1)) cs &&
   match cs with nil => false | c :: rest => (bit c =? 1) || (Nat.eqb (length rest) 0) end) = true.
