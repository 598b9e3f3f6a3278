(* Each element incremented by one. *)
Local Open Scope Z_scope.
Definition incr_list_spec (l r : list Z) : Prop :=
  length r = length l /\ forallb (fun i => nth i r 0 =? nth i l 0 + 1) (seq 0 (length l)) = true.
