(* The even digits between a and b (in either order), ascending. *)
Local Open Scope Z_scope.
Fixpoint count_from (lo : Z) (n : nat) : list Z :=
  match n with O => nil | S m => lo :: count_from (lo + 1) m end.
Definition range (lo hi : Z) : list Z := count_from lo (Z.to_nat (hi - lo + 1)).

Definition generate_integers_spec (a b : Z) (r : list Z) : Prop :=
  r = filter (fun d => Z.even d && (Z.min a b <=? d) && (d <=? Z.max a b)) (range 2 8).
