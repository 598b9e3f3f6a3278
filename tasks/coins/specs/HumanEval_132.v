(* True iff "[[]]" is a subsequence of the string: some bracket pair nested inside another. *)
Fixpoint subsequence (p s : list ascii) : bool :=
  match p, s with
  | nil, _ => true
  | _, nil => false
  | a :: p', b :: s' => if Ascii.eqb a b then subsequence p' s' else subsequence p s'
  end.
Definition is_nested_spec (s : string) (r : bool) : Prop :=
  r = subsequence (list_ascii_of_string "[[]]") (list_ascii_of_string s).
