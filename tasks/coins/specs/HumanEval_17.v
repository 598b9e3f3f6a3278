(* The beats of each space-separated note, in order: "o" lasts 4, "o|" 2 and ".|" 1; empty
   pieces between spaces are not notes. *)
Fixpoint words (cur : list ascii) (cs : list ascii) : list string :=
  match cs with
  | nil => string_of_list_ascii cur :: nil
  | c :: rest => if Ascii.eqb c " "%char then string_of_list_ascii cur :: words nil rest else words (cur ++ c :: nil) rest
  end.
Definition beats (w : string) : Z :=
  if String.eqb w "o" then 4 else if String.eqb w "o|" then 2 else if String.eqb w ".|" then 1 else 0.
Definition parse_music_spec (music_string : string) (r : list Z) : Prop :=
  r = map beats (filter (fun w => negb (String.eqb w "")) (words nil (list_ascii_of_string music_string))).
