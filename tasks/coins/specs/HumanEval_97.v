(* The product of the unit digits of a and b. *)
Local Open Scope Z_scope.
Definition unit_digit (x : Z) : Z := Z.abs x mod 10.
Definition multiply_spec (a b r : Z) : Prop := r = unit_digit a * unit_digit b.
