(* value is a decimal number (optional "-", digits, optional "." and digits); r is the integer
   closest to it, and when it lies exactly halfway between two integers, the one farther from zero. *)
From Coq Require Import QArith Qabs.
Local Open Scope Q_scope.
Definition is_digit (c : ascii) : bool := Nat.leb 48 (nat_of_ascii c) && Nat.leb (nat_of_ascii c) 57.
Definition digit (c : ascii) : Z := (Z.of_nat (nat_of_ascii c) - 48)%Z.
Fixpoint fraction_digits (cs : list ascii) : nat :=
  match cs with
  | nil => O
  | c :: rest => if Ascii.eqb c "."%char then length (filter is_digit rest) else fraction_digits rest
  end.
Definition magnitude (cs : list ascii) : Q :=
  inject_Z (fold_left (fun acc c => acc * 10 + digit c)%Z (filter is_digit cs) 0%Z) /
  inject_Z (10 ^ Z.of_nat (fraction_digits cs)).
Definition number (s : string) : Q :=
  let cs := list_ascii_of_string s in
  match cs with c :: _ => if Ascii.eqb c "-"%char then - magnitude cs else magnitude cs | nil => 0 end.
Definition closest_integer_spec (value : string) (r : Z) : Prop :=
  let q := number value in
  let gap := Qabs (q - inject_Z r) in
  (Qle_bool gap (1 # 2) && (negb (Qeq_bool gap (1 # 2)) || negb (Qle_bool (inject_Z (Z.abs r)) (Qabs q)))) = true.
