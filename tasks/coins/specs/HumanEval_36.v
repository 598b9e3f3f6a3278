(* How many times the digit 7 is written in the numbers 0 <= i < n divisible by 11 or by 13. *)
Local Open Scope Z_scope.
Fixpoint count_from (lo : Z) (n : nat) : list Z :=
  match n with O => nil | S m => lo :: count_from (lo + 1) m end.
(* The sevens among the decimal digits of k (none for 0). *)
Fixpoint sevens_in (u : Decimal.uint) : Z :=
  match u with
  | Decimal.Nil => 0
  | Decimal.D7 t => 1 + sevens_in t
  | Decimal.D0 t | Decimal.D1 t | Decimal.D2 t | Decimal.D3 t | Decimal.D4 t | Decimal.D5 t
  | Decimal.D6 t | Decimal.D8 t | Decimal.D9 t => sevens_in t
  end.
Definition sevens (k : Z) : Z := match k with Zpos p => sevens_in (Pos.to_uint p) | _ => 0 end.
(* The multiples of d in [0, n), and the sevens written in them. *)
Definition multiples_below (d n : Z) : list Z := map (Z.mul d) (count_from 0 (Z.to_nat ((n + d - 1) / d))).
Definition sevens_in_multiples (d n : Z) : Z := fold_right Z.add 0 (map sevens (multiples_below d n)).
(* Each number below n divisible by 11 or 13 once: by inclusion and exclusion, the multiples
   of 11 and those of 13, less those of both (the multiples of 143). *)
Definition fizz_buzz_spec (n r : Z) : Prop :=
  r = sevens_in_multiples 11 n + sevens_in_multiples 13 n - sevens_in_multiples 143 n.
