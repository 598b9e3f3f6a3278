(* The largest number smaller than n that divides n. *)
Local Open Scope Z_scope.
Fixpoint count_from (lo : Z) (n : nat) : list Z :=
  match n with O => nil | S m => lo :: count_from (lo + 1) m end.
Definition range (lo hi : Z) : list Z := count_from lo (Z.to_nat (hi - lo + 1)).

Definition largest_divisor_pre (n : Z) : Prop := 2 <= n.
Definition largest_divisor_spec (n r : Z) : Prop :=
  1 <= r < n /\ n mod r = 0 /\ forallb (fun d => negb (n mod d =? 0)) (range (r + 1) (n - 1)) = true.
