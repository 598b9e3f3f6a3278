(* Half of base times height. *)
Local Open Scope R_scope.
Definition triangle_area_spec (a h : Z) (r : R) : Prop := r = IZR a * IZR h / 2.
