(* All non-empty prefixes, from shortest to longest. *)
Definition all_prefixes_spec (s : string) (r : list string) : Prop :=
  length r = String.length s /\
  forallb (fun i => String.eqb (nth i r ""%string) (substring 0 (S i) s)) (seq 0 (String.length s)) = true.
