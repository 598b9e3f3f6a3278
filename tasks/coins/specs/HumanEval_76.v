(* True iff x = n^k for some natural k (for n >= 2 such a k is at most log2 x, and 1 = n^0). *)
Local Open Scope Z_scope.
Fixpoint count_from (lo : Z) (n : nat) : list Z :=
  match n with O => nil | S m => lo :: count_from (lo + 1) m end.
Definition is_simple_power_pre (x n : Z) : Prop := 1 <= x /\ 1 <= n.
Definition is_simple_power_spec (x n : Z) (r : bool) : Prop :=
  r = existsb (fun k => n ^ k =? x) (count_from 0 (Z.to_nat (Z.log2 x + 1))).
