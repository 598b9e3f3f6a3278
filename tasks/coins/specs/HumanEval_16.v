(* The number of distinct characters, ignoring case. *)
Definition lower (c : ascii) : ascii :=
  let n := nat_of_ascii c in if (65 <=? n)%nat && (n <=? 90)%nat then ascii_of_nat (n + 32) else c.
Fixpoint distinct (l : list ascii) : list ascii :=
  match l with
  | nil => nil
  | c :: rest => if existsb (Ascii.eqb c) rest then distinct rest else c :: distinct rest
  end.
Definition count_distinct_characters_spec (s : string) (r : Z) : Prop :=
  r = Z.of_nat (length (distinct (map lower (list_ascii_of_string s)))).
