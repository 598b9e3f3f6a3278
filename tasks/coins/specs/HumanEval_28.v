(* The strings joined in order, without separator. *)
Definition concatenate_spec (strings : list string) (r : string) : Prop :=
  r = fold_right String.append ""%string strings.
