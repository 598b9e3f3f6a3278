(* Lowercase letters become uppercase and vice versa; other characters stay. *)
Definition flip (c : ascii) : ascii :=
  let n := nat_of_ascii c in
  if (65 <=? n)%nat && (n <=? 90)%nat then ascii_of_nat (n + 32)
  else if (97 <=? n)%nat && (n <=? 122)%nat then ascii_of_nat (n - 32) else c.
Definition flip_case_spec (s r : string) : Prop :=
  list_ascii_of_string r = map flip (list_ascii_of_string s).
