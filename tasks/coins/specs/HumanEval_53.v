(* The sum of x and y. *)
Local Open Scope Z_scope.
Definition add_spec (x y r : Z) : Prop := r = x + y.
