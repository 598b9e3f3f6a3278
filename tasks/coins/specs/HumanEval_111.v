(* The letters occurring most often among the space-separated words, each with that count, as a
   dictionary (a list of pairs, in any order, each letter once); empty for an empty text. *)
Local Open Scope Z_scope.
Fixpoint words (cur : list ascii) (cs : list ascii) : list string :=
  match cs with
  | nil => string_of_list_ascii cur :: nil
  | c :: rest => if Ascii.eqb c " "%char then string_of_list_ascii cur :: words nil rest else words (cur ++ c :: nil) rest
  end.
Definition letters (test : string) : list string := filter (fun w => negb (String.eqb w "")) (words nil (list_ascii_of_string test)).
Definition count (ws : list string) (w : string) : Z := Z.of_nat (length (filter (String.eqb w) ws)).
Definition histogram_spec (test : string) (r : list (string * Z)) : Prop :=
  let ws := letters test in
  let top := fold_right Z.max 0 (map (count ws) ws) in
  NoDup (map fst r) /\
  (forallb (fun p => (snd p =? top) && (count ws (fst p) =? top)) r &&
   forallb (fun w => negb (count ws w =? top) || existsb (fun p => String.eqb (fst p) w) r) ws) = true.
