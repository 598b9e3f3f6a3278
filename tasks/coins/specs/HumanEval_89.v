(* Every lowercase letter moved four places down the alphabet (wrapping from z to a), other
   characters unchanged. *)
Definition rotate (c : ascii) : ascii :=
  let n := nat_of_ascii c in
  if Nat.leb 97 n && Nat.leb n 122 then ascii_of_nat (97 + Nat.modulo (n - 97 + 4) 26) else c.
Definition encrypt_spec (s r : string) : Prop :=
  r = string_of_list_ascii (map rotate (list_ascii_of_string s)).
