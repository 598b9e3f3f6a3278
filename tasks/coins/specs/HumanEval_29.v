(* The input strings that start with the prefix, in their original order. *)
Definition filter_by_prefix_spec (strings : list string) (p : string) (r : list string) : Prop :=
  r = filter (String.prefix p) strings.
