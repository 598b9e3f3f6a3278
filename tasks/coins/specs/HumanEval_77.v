(* True iff a is the cube of some integer. *)
Local Open Scope Z_scope.
Fixpoint count_from (lo : Z) (n : nat) : list Z :=
  match n with O => nil | S m => lo :: count_from (lo + 1) m end.
Definition range (lo hi : Z) : list Z := count_from lo (Z.to_nat (hi - lo + 1)).

Definition iscube_spec (a : Z) (r : bool) : Prop :=
  r = existsb (fun k => k * k * k =? a) (range (- Z.abs a) (Z.abs a)).
