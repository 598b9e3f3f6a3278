(* The lowercase string whose encoding is s, encoding shifting every letter five places along
   the alphabet (wrapping from z to a). *)
Definition lower (c : ascii) : bool := Nat.leb 97 (nat_of_ascii c) && Nat.leb (nat_of_ascii c) 122.
Definition shift (c : ascii) : ascii := ascii_of_nat (97 + Nat.modulo (nat_of_ascii c + 5 - 97) 26).
Definition decode_shift_spec (s r : string) : Prop :=
  forallb lower (list_ascii_of_string r) = true /\
  map shift (list_ascii_of_string r) = list_ascii_of_string s.
