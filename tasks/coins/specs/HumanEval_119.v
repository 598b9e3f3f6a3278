(* "Yes" iff one of the two concatenations of the two strings is balanced (no prefix closes more
   parentheses than it opens, and all are closed at the end); "No" otherwise. *)
Fixpoint balanced_from (depth : nat) (cs : list ascii) : bool :=
  match cs with
  | nil => Nat.eqb depth 0
  | c :: rest =>
    if Ascii.eqb c "("%char then balanced_from (S depth) rest
    else match depth with O => false | S d => balanced_from d rest end
  end.
Definition balanced (s : string) : bool := balanced_from 0 (list_ascii_of_string s).
Definition match_parens_pre (lst : list string) : Prop := length lst = 2.
Definition match_parens_spec (lst : list string) (r : string) : Prop :=
  let a := nth 0 lst ""%string in let b := nth 1 lst ""%string in
  r = if balanced (a ++ b) || balanced (b ++ a) then "Yes"%string else "No"%string.
