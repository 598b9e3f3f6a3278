(* True iff the dictionary (a list of key-value pairs) is not empty and either every key is in
   lower case or every key is in upper case (a key is in lower case when it has a lowercase letter
   and no uppercase one, and conversely). *)
Definition between (lo hi : nat) (c : ascii) : bool := Nat.leb lo (nat_of_ascii c) && Nat.leb (nat_of_ascii c) hi.
Definition cased (small : bool) (key : string) : bool :=
  let cs := list_ascii_of_string key in
  existsb (between (if small then 97 else 65) (if small then 122 else 90)) cs &&
  negb (existsb (between (if small then 65 else 97) (if small then 90 else 122)) cs).
Definition check_dict_case_spec (dict : list (string * string)) (r : bool) : Prop :=
  let keys := map fst dict in
  r = negb (Nat.eqb (length keys) 0) && (forallb (cased true) keys || forallb (cased false) keys).
