(* The sum of the elements with at most two digits among the first k. *)
Local Open Scope Z_scope.
Definition add_elements_spec (arr : list Z) (k r : Z) : Prop :=
  r = fold_right Z.add 0 (filter (fun x => Z.abs x <? 100) (firstn (Z.to_nat k) arr)).
