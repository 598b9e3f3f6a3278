(* The number of mirrored position pairs holding different values. *)
Local Open Scope Z_scope.
Definition smallest_change_spec (arr : list Z) (r : Z) : Prop :=
  let n := length arr in
  r = Z.of_nat (length (filter (fun i => negb (nth i arr 0 =? nth (n - 1 - i) arr 0))
                               (seq 0 (Nat.div n 2)))).
