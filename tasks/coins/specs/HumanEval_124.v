(* True iff date is "mm-dd-yyyy" (two digits, "-", two digits, "-", four digits) with month 1 to
   12 and day at least 1 and at most 31, 30 for April, June, September, November, 29 for February. *)
Local Open Scope Z_scope.
Definition is_digit (c : ascii) : bool := Nat.leb 48 (nat_of_ascii c) && Nat.leb (nat_of_ascii c) 57.
Definition digit (c : ascii) : Z := Z.of_nat (nat_of_ascii c) - 48.
Definition number (cs : list ascii) : Z := fold_left (fun acc c => acc * 10 + digit c) cs 0.
Definition days_in (m : Z) : Z :=
  if (m =? 2) then 29 else if (m =? 4) || (m =? 6) || (m =? 9) || (m =? 11) then 30 else 31.
Definition valid_date_spec (date : string) (r : bool) : Prop :=
  let cs := list_ascii_of_string date in
  let m := number (firstn 2 cs) in let d := number (firstn 2 (skipn 3 cs)) in
  r = (Nat.eqb (length cs) 10 &&
       forallb (fun i => if Nat.eqb i 2 || Nat.eqb i 5 then Ascii.eqb (nth i cs " "%char) "-"%char else is_digit (nth i cs " "%char)) (seq 0 10) &&
       (1 <=? m) && (m <=? 12) && (1 <=? d) && (d <=? days_in m)).
