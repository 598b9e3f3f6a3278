(* Position i of the result is the maximum of the first i + 1 input elements. *)
Local Open Scope Z_scope.
Definition max_of (l : list Z) : Z := fold_left Z.max (tl l) (hd 0 l).
Definition rolling_max_spec (numbers : list Z) (r : list Z) : Prop :=
  length r = length numbers /\
  forallb (fun i => nth i r 0 =? max_of (firstn (S i) numbers)) (seq 0 (length numbers)) = true.
