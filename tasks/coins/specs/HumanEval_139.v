(* The Brazilian factorial: 1! * 2! * ... * n!. *)
Local Open Scope Z_scope.
Fixpoint count_from (lo : Z) (n : nat) : list Z :=
  match n with O => nil | S m => lo :: count_from (lo + 1) m end.
Definition range (lo hi : Z) : list Z := count_from lo (Z.to_nat (hi - lo + 1)).

Definition factorial (k : Z) : Z := fold_right Z.mul 1 (range 1 k).
Definition special_factorial_pre (n : Z) : Prop := 0 < n.
Definition special_factorial_spec (n r : Z) : Prop := r = fold_right Z.mul 1 (map factorial (range 1 n)).
