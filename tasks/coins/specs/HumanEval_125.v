(* For a text holding a space or a comma: its words split on whitespace when it holds a space,
   otherwise split on commas (empty pieces dropped). (A text with neither gets an int, the count
   of lowercase letters of odd alphabet rank, which a list output cannot hold, so the spec covers
   texts with a space or a comma.) *)
Definition whitespace (c : ascii) : bool :=
  Ascii.eqb c " "%char || Ascii.eqb c (ascii_of_nat 9) || Ascii.eqb c (ascii_of_nat 10) || Ascii.eqb c (ascii_of_nat 13).
Fixpoint pieces (sep : ascii -> bool) (cur : list ascii) (cs : list ascii) : list string :=
  match cs with
  | nil => string_of_list_ascii cur :: nil
  | c :: rest => if sep c then string_of_list_ascii cur :: pieces sep nil rest else pieces sep (cur ++ c :: nil) rest
  end.
Definition split_words_pre (txt : string) : Prop :=
  existsb (fun c => Ascii.eqb c " "%char || Ascii.eqb c ","%char) (list_ascii_of_string txt) = true.
Definition split_words_spec (txt : string) (r : list string) : Prop :=
  let cs := list_ascii_of_string txt in
  let sep := if existsb (Ascii.eqb " "%char) cs then whitespace else Ascii.eqb ","%char in
  r = filter (fun w => negb (String.eqb w "")) (pieces sep nil cs).
