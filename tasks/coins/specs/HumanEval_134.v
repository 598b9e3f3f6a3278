(* True iff the last character is a letter standing alone: it is the whole text or comes right
   after a space. *)
Definition letter (c : ascii) : bool :=
  let n := nat_of_ascii c in (Nat.leb 65 n && Nat.leb n 90) || (Nat.leb 97 n && Nat.leb n 122).
Definition check_if_last_char_is_a_letter_spec (txt : string) (r : bool) : Prop :=
  r = match rev (list_ascii_of_string txt) with
      | c :: nil => letter c
      | c :: d :: _ => letter c && Ascii.eqb d " "%char
      | nil => false
      end.
