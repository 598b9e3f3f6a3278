(* The elements of x none of whose decimal digits is even, with their multiplicities, in
   non-decreasing order. *)
Local Open Scope Z_scope.
Fixpoint all_digits_odd (fuel : nat) (n : Z) : bool :=
  match fuel with
  | O => true
  | S f => Z.odd (n mod 10) && (if n <? 10 then true else all_digits_odd f (n / 10))
  end.
Fixpoint non_decreasing (l : list Z) : bool :=
  match l with
  | x :: (y :: _) as rest => (x <=? y) && non_decreasing rest
  | _ => true
  end.
Definition count (l : list Z) (x : Z) : nat := count_occ Z.eq_dec l x.
Definition same_multiset (a b : list Z) : bool := forallb (fun x => Nat.eqb (count a x) (count b x)) (a ++ b).
Definition unique_digits_pre (x : list Z) : Prop := forallb (fun n => 0 <? n) x = true.
Definition unique_digits_spec (x r : list Z) : Prop :=
  (non_decreasing r && same_multiset r (filter (all_digits_odd 64) x)) = true.
