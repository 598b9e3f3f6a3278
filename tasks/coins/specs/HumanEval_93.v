(* Every letter's case swapped, and then every vowel replaced by the letter two places after it
   in the alphabet (a -> c, E -> G, ...); other characters unchanged. *)
Definition swap_case (c : ascii) : ascii :=
  let n := nat_of_ascii c in
  if Nat.leb 97 n && Nat.leb n 122 then ascii_of_nat (n - 32)
  else if Nat.leb 65 n && Nat.leb n 90 then ascii_of_nat (n + 32) else c.
Definition vowel (c : ascii) : bool := existsb (Ascii.eqb c) (list_ascii_of_string "aeiouAEIOU").
Definition encode_char (c : ascii) : ascii :=
  let d := swap_case c in if vowel d then ascii_of_nat (nat_of_ascii d + 2) else d.
Definition encode_spec (message r : string) : Prop :=
  r = string_of_list_ascii (map encode_char (list_ascii_of_string message)).
