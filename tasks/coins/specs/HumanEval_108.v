(* The number of elements whose signed digit sum is positive (the leading digit of a negative number counts as negative). *)
Local Open Scope Z_scope.
Fixpoint digits_of (fuel : nat) (n : Z) : list Z :=
  match fuel with
  | O => nil
  | S f => if n <? 10 then n :: nil else digits_of f (n / 10) ++ (n mod 10 :: nil)
  end.
Definition signed_digit_sum (x : Z) : Z :=
  let ds := digits_of 64 (Z.abs x) in
  if x <? 0 then fold_right Z.add 0 ds - 2 * hd 0 ds else fold_right Z.add 0 ds.
Definition count_nums_spec (arr : list Z) (r : Z) : Prop :=
  r = Z.of_nat (length (filter (fun x => 0 <? signed_digit_sum x) arr)).
