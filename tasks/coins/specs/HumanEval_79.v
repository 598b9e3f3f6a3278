(* "db", then decimal in binary (digits 0 and 1, no leading zero except for "0" itself), then "db". *)
Local Open Scope Z_scope.
Definition bit (c : ascii) : Z := Z.of_nat (nat_of_ascii c) - 48.
Definition read_binary (cs : list ascii) : Z := fold_left (fun acc c => 2 * acc + bit c) cs 0.
Definition binary_of (n : Z) (cs : list ascii) : bool :=
  (read_binary cs =? n) && forallb (fun c => (bit c =? 0) || (bit c =? 1)) cs &&
  match cs with nil => false | c :: rest => (bit c =? 1) || (Nat.eqb (length rest) 0) end.
Definition decimal_to_binary_pre (decimal : Z) : Prop := 0 <= decimal.
Definition decimal_to_binary_spec (decimal : Z) (r : string) : Prop :=
  let n := String.length r in
  (Nat.leb 5 n && String.prefix "db" r && String.eqb (substring (n - 2) 2 r) "db" &&
   binary_of decimal (list_ascii_of_string (substring 2 (n - 4) r))) = true.
