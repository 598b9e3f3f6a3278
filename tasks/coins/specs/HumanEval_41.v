(* Every one of the n cars driving right meets every one of the n cars driving left once: n * n. *)
Local Open Scope Z_scope.
Definition car_race_collision_pre (n : Z) : Prop := 0 <= n.
Definition car_race_collision_spec (n r : Z) : Prop := r = n * n.
