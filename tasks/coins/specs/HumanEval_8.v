(* The sum and the product of the list; the empty sum is 0 and the empty product is 1. *)
Local Open Scope Z_scope.
Definition sum_product_spec (numbers : list Z) (r : Z * Z) : Prop :=
  fst r = fold_right Z.add 0 numbers /\ snd r = fold_right Z.mul 1 numbers.
