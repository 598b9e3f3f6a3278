(* The text with every vowel (a, e, i, o, u in either case) removed, the rest kept in order. *)
Definition vowel (c : ascii) : bool := existsb (Ascii.eqb c) (list_ascii_of_string "aeiouAEIOU").
Definition remove_vowels_spec (text r : string) : Prop :=
  r = string_of_list_ascii (filter (fun c => negb (vowel c)) (list_ascii_of_string text)).
