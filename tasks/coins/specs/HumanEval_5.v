(* Even positions of the result hold the input in order; odd positions hold the delimiter. *)
Local Open Scope Z_scope.
Definition intersperse_spec (numbers : list Z) (delimeter : Z) (r : list Z) : Prop :=
  length r = (2 * length numbers - 1)%nat /\
  forallb (fun i => nth i r 0 =? (if Nat.even i then nth (Nat.div2 i) numbers 0 else delimeter))
          (seq 0 (length r)) = true.
