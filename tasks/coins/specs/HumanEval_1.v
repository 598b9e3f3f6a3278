(* The groups, in order, are the maximal balanced parenthesis groups of the input with the spaces
   removed: gluing them back gives the input without spaces, and each group is non-empty, balanced,
   and returns to depth zero only at its end. *)
Local Open Scope char_scope.
Fixpoint closes_only_at_end (depth : nat) (cs : list ascii) : bool :=
  match cs with
  | nil => false
  | c :: rest =>
    if Ascii.eqb c "(" then closes_only_at_end (S depth) rest
    else if Ascii.eqb c ")" then
      match depth with
      | O => false
      | 1 => match rest with nil => true | _ => false end
      | S d => closes_only_at_end d rest
      end
    else false
  end.
Definition minimal_group (g : string) : bool := closes_only_at_end 0 (list_ascii_of_string g).
Definition without_spaces (s : string) : string :=
  string_of_list_ascii (filter (fun c => negb (Ascii.eqb c " ")) (list_ascii_of_string s)).
Definition separate_paren_groups_spec (paren_string : string) (r : list string) : Prop :=
  String.concat "" r = without_spaces paren_string /\ forallb minimal_group r = true.
