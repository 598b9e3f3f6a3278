(* The words of s (non-empty pieces between spaces), in order, that hold exactly n consonants
   (letters other than a, e, i, o, u in either case). *)
Fixpoint words (cur : list ascii) (cs : list ascii) : list (list ascii) :=
  match cs with
  | nil => cur :: nil
  | c :: rest => if Ascii.eqb c " "%char then cur :: words nil rest else words (cur ++ c :: nil) rest
  end.
Definition letter (c : ascii) : bool :=
  let n := nat_of_ascii c in (Nat.leb 65 n && Nat.leb n 90) || (Nat.leb 97 n && Nat.leb n 122).
Definition consonant (c : ascii) : bool :=
  letter c && negb (existsb (Ascii.eqb c) (list_ascii_of_string "aeiouAEIOU")).
Definition select_words_spec (s : string) (n : Z) (r : list string) : Prop :=
  r = map string_of_list_ascii
        (filter (fun w => negb (Nat.eqb (length w) 0) && Z.eqb (Z.of_nat (length (filter consonant w))) n)
                (words nil (list_ascii_of_string s))).
