(* True iff the three sides form a right-angled triangle. *)
Local Open Scope Z_scope.
Definition right_angle_triangle_spec (a b c : Z) (r : bool) : Prop :=
  r = (a * a + b * b =? c * c) || (a * a + c * c =? b * b) || (b * b + c * c =? a * a).
