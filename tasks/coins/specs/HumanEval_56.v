(* True iff, reading left to right, no prefix has more ">" than "<" and the counts are equal at the end. *)
Fixpoint balanced_from (depth : nat) (cs : list ascii) : bool :=
  match cs with
  | nil => Nat.eqb depth 0
  | c :: rest =>
    if Ascii.eqb c "<"%char then balanced_from (S depth) rest
    else if Ascii.eqb c ">"%char then match depth with O => false | S d => balanced_from d rest end
    else balanced_from depth rest
  end.
Definition correct_bracketing_spec (brackets : string) (r : bool) : Prop :=
  r = balanced_from 0 (list_ascii_of_string brackets).
