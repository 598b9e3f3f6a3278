(* "Yes" iff the name has at most three digits and exactly one ".", the part before it starts
   with a latin letter, and the part after it is "txt", "exe" or "dll"; "No" otherwise. *)
Definition is_digit (c : ascii) : bool := Nat.leb 48 (nat_of_ascii c) && Nat.leb (nat_of_ascii c) 57.
Definition letter (c : ascii) : bool :=
  let n := nat_of_ascii c in (Nat.leb 65 n && Nat.leb n 90) || (Nat.leb 97 n && Nat.leb n 122).
Fixpoint split_dot (cur : list ascii) (cs : list ascii) : list (list ascii) :=
  match cs with
  | nil => cur :: nil
  | c :: rest => if Ascii.eqb c "."%char then cur :: split_dot nil rest else split_dot (cur ++ c :: nil) rest
  end.
Definition valid (name : string) : bool :=
  let cs := list_ascii_of_string name in
  Nat.leb (length (filter is_digit cs)) 3 &&
  match split_dot nil cs with
  | (c :: _) :: ext :: nil =>
    letter c && existsb (String.eqb (string_of_list_ascii ext)) ("txt" :: "exe" :: "dll" :: nil)%string
  | _ => false
  end.
Definition file_name_check_spec (file_name r : string) : Prop :=
  r = if valid file_name then "Yes"%string else "No"%string.
