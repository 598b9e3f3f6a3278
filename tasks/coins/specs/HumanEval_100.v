(* n levels; the first holds n stones and each next level two more. *)
Local Open Scope Z_scope.
Definition make_a_pile_pre (n : Z) : Prop := 0 < n.
Definition make_a_pile_spec (n : Z) (r : list Z) : Prop :=
  Z.of_nat (length r) = n /\
  forallb (fun i => nth i r 0 =? n + 2 * Z.of_nat i) (seq 0 (length r)) = true.
