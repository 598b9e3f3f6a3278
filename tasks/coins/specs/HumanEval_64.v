(* Count of a, e, i, o, u in any case, plus one if the last character is y or Y. *)
Definition is_vowel (c : ascii) : bool :=
  existsb (Ascii.eqb c) (list_ascii_of_string "aeiouAEIOU").
Definition ends_with_y (s : string) : bool :=
  match String.get (pred (String.length s)) s with
  | Some c => Ascii.eqb c "y"%char || Ascii.eqb c "Y"%char
  | None => false
  end.
Definition vowels_count_spec (s : string) (r : Z) : Prop :=
  r = (Z.of_nat (count_occ Bool.bool_dec (map is_vowel (list_ascii_of_string s)) true)
       + (if ends_with_y s then 1 else 0))%Z.
