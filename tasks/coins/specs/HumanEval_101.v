(* The words of s in order: the non-empty pieces between commas and spaces. *)
Fixpoint pieces (cur : list ascii) (cs : list ascii) : list string :=
  match cs with
  | nil => string_of_list_ascii cur :: nil
  | c :: rest =>
    if Ascii.eqb c " "%char || Ascii.eqb c ","%char
    then string_of_list_ascii cur :: pieces nil rest else pieces (cur ++ c :: nil) rest
  end.
Definition words_string_spec (s : string) (r : list string) : Prop :=
  r = filter (fun w => negb (String.eqb w "")) (pieces nil (list_ascii_of_string s)).
