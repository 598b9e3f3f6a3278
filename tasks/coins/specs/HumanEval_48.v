(* True iff the text reads the same backwards. *)
Definition is_palindrome_spec (text : string) (r : bool) : Prop :=
  r = String.eqb text (string_of_list_ascii (rev (list_ascii_of_string text))).
