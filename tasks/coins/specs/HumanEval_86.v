(* Each space-separated word (empty ones included) with its characters in ascending ASCII order,
   the words and spaces kept in place. *)
Fixpoint words (cur : list ascii) (cs : list ascii) : list (list ascii) :=
  match cs with
  | nil => cur :: nil
  | c :: rest => if Ascii.eqb c " "%char then cur :: words nil rest else words (cur ++ c :: nil) rest
  end.
Fixpoint insert (c : ascii) (l : list ascii) : list ascii :=
  match l with
  | nil => c :: nil
  | d :: rest => if Nat.leb (nat_of_ascii c) (nat_of_ascii d) then c :: l else d :: insert c rest
  end.
Definition sort_chars (w : list ascii) : string := string_of_list_ascii (fold_right insert nil w).
Definition anti_shuffle_spec (s r : string) : Prop :=
  r = String.concat " " (map sort_chars (words nil (list_ascii_of_string s))).
