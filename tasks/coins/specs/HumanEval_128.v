(* None for an empty list; otherwise the sum of magnitudes times the product of signs. *)
Local Open Scope Z_scope.
Definition prod_signs_spec (arr : list Z) (r : option Z) : Prop :=
  match arr with
  | nil => r = None
  | _ => r = Some (fold_right Z.mul 1 (map Z.sgn arr) * fold_right Z.add 0 (map Z.abs arr))
  end.
