(* The rightmost vowel that is neither the first nor the last character and has a non-vowel on
   each side, as a one-character string; "" when there is none. *)
Definition vowel (c : ascii) : bool := existsb (Ascii.eqb c) (list_ascii_of_string "aeiouAEIOU").
Definition is_vowel_at (w : string) (i : nat) : bool :=
  match get i w with Some c => vowel c | None => false end.
Definition enclosed (w : string) (i : nat) : bool :=
  is_vowel_at w i && negb (is_vowel_at w (pred i)) && negb (is_vowel_at w (S i)).
Definition get_closest_vowel_spec (word r : string) : Prop :=
  match rev (filter (enclosed word) (seq 1 (String.length word - 2))) with
  | nil => r = ""%string
  | i :: _ => r = substring i 1 word
  end.
