(* True iff both strings use the same set of characters. *)
Definition subset (a b : list ascii) : bool := forallb (fun c => existsb (Ascii.eqb c) b) a.
Definition same_chars_spec (s0 s1 : string) (r : bool) : Prop :=
  let a := list_ascii_of_string s0 in
  let b := list_ascii_of_string s1 in
  r = subset a b && subset b a.
