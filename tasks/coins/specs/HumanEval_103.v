(* For n <= m: "0b" followed by the binary digits (no leading zero) of the average of n .. m,
   (n + m) / 2, rounded half to even as Python's round does. (For n > m the answer is the int -1,
   which a string output cannot hold, so the spec covers n <= m.) *)
Local Open Scope Z_scope.
Definition bit (c : ascii) : Z := Z.of_nat (nat_of_ascii c) - 48.
Definition read_binary (cs : list ascii) : Z := fold_left (fun acc c => 2 * acc + bit c) cs 0.
Definition binary_of (n : Z) (cs : list ascii) : bool :=
  (read_binary cs =? n) && forallb (fun c => (bit c =? 0) || (bit c =? 1)) cs &&
  match cs with nil => false | c :: rest => (bit c =? 1) || (Nat.eqb (length rest) 0) end.
Definition rounded_average (n m : Z) : Z :=
  let s := n + m in
  if Z.even s then s / 2 else if Z.even ((s - 1) / 2) then (s - 1) / 2 else (s + 1) / 2.
Definition rounded_avg_pre (n m : Z) : Prop := 1 <= n <= m.
Definition rounded_avg_spec (n m : Z) (r : string) : Prop :=
  (String.prefix "0b" r && binary_of (rounded_average n m) (list_ascii_of_string (substring 2 (String.length r - 2) r))) = true.
