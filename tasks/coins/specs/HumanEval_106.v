(* The list of length n whose element for i = 1 .. n is i! when i is even and 1 + 2 + ... + i
   when i is odd. *)
Local Open Scope Z_scope.
Fixpoint count_from (lo : Z) (n : nat) : list Z :=
  match n with O => nil | S m => lo :: count_from (lo + 1) m end.
Definition range (lo hi : Z) : list Z := count_from lo (Z.to_nat (hi - lo + 1)).
Definition f_pre (n : Z) : Prop := 0 <= n.
Definition f_spec (n : Z) (r : list Z) : Prop :=
  r = map (fun i => if Z.even i then fold_right Z.mul 1 (range 1 i) else fold_right Z.add 0 (range 1 i)) (range 1 n).
