(* The number of even and of odd digits of num. *)
Local Open Scope Z_scope.
Fixpoint digits_of (fuel : nat) (n : Z) : list Z :=
  match fuel with
  | O => nil
  | S f => if n <? 10 then n :: nil else (n mod 10) :: digits_of f (n / 10)
  end.
Definition even_odd_count_spec (num : Z) (r : Z * Z) : Prop :=
  let ds := digits_of 64 (Z.abs num) in
  r = (Z.of_nat (length (filter Z.even ds)), Z.of_nat (length (filter Z.odd ds))).
