(* The number of sentences (pieces between the delimiters ".", "?" and "!") that, once the spaces
   after the delimiter are skipped, begin with the word "I" followed by a space. *)
Fixpoint sentences (cur : list ascii) (cs : list ascii) : list (list ascii) :=
  match cs with
  | nil => cur :: nil
  | c :: rest =>
    if Ascii.eqb c "."%char || Ascii.eqb c "?"%char || Ascii.eqb c "!"%char
    then cur :: sentences nil rest else sentences (cur ++ c :: nil) rest
  end.
Fixpoint skip_spaces (cs : list ascii) : list ascii :=
  match cs with c :: rest => if Ascii.eqb c " "%char then skip_spaces rest else cs | nil => nil end.
Definition bored (first : bool) (cs : list ascii) : bool :=
  String.prefix "I " (string_of_list_ascii (if first then cs else skip_spaces cs)).
Definition is_bored_spec (S : string) (r : Z) : Prop :=
  match sentences nil (list_ascii_of_string S) with
  | nil => r = 0%Z
  | first :: rest =>
    r = Z.of_nat (length (filter (fun b => b) (bored true first :: map (bored false) rest)))
  end.
