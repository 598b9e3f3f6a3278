(* When s holds a letter, s with the case of every letter swapped; otherwise s reversed. *)
Definition between (lo hi : nat) (c : ascii) : bool := Nat.leb lo (nat_of_ascii c) && Nat.leb (nat_of_ascii c) hi.
Definition swap_case (c : ascii) : ascii :=
  if between 97 122 c then ascii_of_nat (nat_of_ascii c - 32)
  else if between 65 90 c then ascii_of_nat (nat_of_ascii c + 32) else c.
Definition solve_spec (s r : string) : Prop :=
  let cs := list_ascii_of_string s in
  r = string_of_list_ascii
        (if existsb (fun c => between 65 90 c || between 97 122 c) cs then map swap_case cs else rev cs).
