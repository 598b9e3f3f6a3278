(* The larger of two real numbers given as an int, a float or a decimal string (its point written
   "." or ","), returned as it was given; None when they are equal. The precondition is that both
   denote numbers: digits with at most one point and an optional sign (no spaces or exponents). *)
From Coq Require Import QArith.
Local Open Scope Z_scope.
Definition digit_value (c : ascii) : option Z :=
  let n := nat_of_ascii c in
  if (48 <=? n)%nat && (n <=? 57)%nat then Some (Z.of_nat n - 48) else None.
Fixpoint decimal_value (s : string) (num : Z) (den : positive) (after_point seen_digit : bool) : option Q :=
  match s with
  | EmptyString => if seen_digit then Some (Qmake num den) else None
  | String c rest =>
      if ((c =? ".")%char || (c =? ",")%char)%bool then
        if after_point then None else decimal_value rest num den true seen_digit
      else
        match digit_value c with
        | Some d => decimal_value rest (10 * num + d) (if after_point then 10 * den else den)%positive after_point true
        | None => None
        end
  end.
Definition string_number (s : string) : option Q :=
  match s with
  | String "-" rest => option_map Qopp (decimal_value rest 0 1 false false)
  | String "+" rest => decimal_value rest 0 1 false false
  | _ => decimal_value s 0 1 false false
  end.
Definition number_of (v : pyvalue) : option Q :=
  match v with
  | PyInt z => Some (inject_Z z)
  | PyBool b => Some (inject_Z (Z.b2z b))
  | PyFloat q => Some q
  | PyStr s => string_number s
  | _ => None
  end.
Definition compare_one_pre (a b : pyvalue) : Prop := number_of a <> None /\ number_of b <> None.
Definition compare_one_spec (a b : pyvalue) (r : pyvalue) : Prop :=
  match number_of a, number_of b with
  | Some x, Some y => if Qeq_bool x y then r = PyNone else if Qle_bool x y then r = b else r = a
  | _, _ => False
  end.
