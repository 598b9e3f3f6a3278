(* Delete from s every character occurring in c; report whether the rest is a palindrome. *)
Definition kept (c : string) (x : ascii) : bool := negb (existsb (Ascii.eqb x) (list_ascii_of_string c)).
Definition reverse_delete_spec (s c : string) (r : string * bool) : Prop :=
  let rest := filter (kept c) (list_ascii_of_string s) in
  list_ascii_of_string (fst r) = rest /\
  snd r = String.eqb (string_of_list_ascii rest) (string_of_list_ascii (rev rest)).
