(* For each non-empty space-separated group, in order, its deepest nesting level. *)
Local Open Scope char_scope.
Fixpoint words (cur : list ascii) (cs : list ascii) : list (list ascii) :=
  match cs with
  | nil => cur :: nil
  | c :: rest => if Ascii.eqb c " " then cur :: words nil rest else words (cur ++ c :: nil) rest
  end.
Fixpoint max_depth (depth best : Z) (cs : list ascii) : Z :=
  match cs with
  | nil => best
  | c :: rest =>
    if Ascii.eqb c "(" then max_depth (depth + 1) (Z.max best (depth + 1)) rest
    else if Ascii.eqb c ")" then max_depth (depth - 1) best rest
    else max_depth depth best rest
  end.
Definition parse_nested_parens_spec (paren_string : string) (r : list Z) : Prop :=
  r = map (max_depth 0 0) (filter (fun w => negb (Nat.eqb (length w) 0)) (words nil (list_ascii_of_string paren_string))).
