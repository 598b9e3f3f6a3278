(* The number of uppercase vowels at even positions. *)
Definition upper_vowel (c : ascii) : bool := existsb (Ascii.eqb c) (list_ascii_of_string "AEIOU").
Definition count_upper_spec (s : string) (r : Z) : Prop :=
  r = Z.of_nat (length (filter (fun i => Nat.even i && match String.get i s with
                                                      | Some c => upper_vowel c
                                                      | None => false end)
                               (seq 0 (String.length s)))).
