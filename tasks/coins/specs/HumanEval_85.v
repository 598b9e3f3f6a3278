(* The sum of the even elements at odd positions. *)
Local Open Scope Z_scope.
Definition add_spec (lst : list Z) (r : Z) : Prop :=
  r = fold_right Z.add 0
        (map (fun i => nth i lst 0)
             (filter (fun i => Nat.odd i && Z.even (nth i lst 0)) (seq 0 (length lst)))).
