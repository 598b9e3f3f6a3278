(* The sum of the odd elements at even positions. *)
Local Open Scope Z_scope.
Definition solution_spec (lst : list Z) (r : Z) : Prop :=
  r = fold_right Z.add 0
        (map (fun i => nth i lst 0)
             (filter (fun i => Nat.even i && Z.odd (nth i lst 0)) (seq 0 (length lst)))).
