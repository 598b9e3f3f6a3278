(* How far off each guess was: the absolute difference, position by position. *)
Local Open Scope Z_scope.
Definition compare_pre (game guess : list Z) : Prop := length game = length guess.
Definition compare_spec (game guess r : list Z) : Prop :=
  length r = length game /\
  forallb (fun i => nth i r 0 =? Z.abs (nth i game 0 - nth i guess 0)) (seq 0 (length game)) = true.
