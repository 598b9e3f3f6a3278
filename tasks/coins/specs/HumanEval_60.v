(* The sum 1 + 2 + ... + n. *)
Local Open Scope Z_scope.
Fixpoint count_from (lo : Z) (n : nat) : list Z :=
  match n with O => nil | S m => lo :: count_from (lo + 1) m end.
Definition range (lo hi : Z) : list Z := count_from lo (Z.to_nat (hi - lo + 1)).
Definition sum (l : list Z) : Z := fold_right Z.add 0 l.

Definition sum_to_n_spec (n r : Z) : Prop := r = sum (range 1 n).
