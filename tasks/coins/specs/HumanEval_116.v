(* The same elements (a permutation) ordered by the number of ones in the binary form of their
   absolute value, ties by value. *)
Local Open Scope Z_scope.
Fixpoint ones (fuel : nat) (n : Z) : Z :=
  match fuel with O => 0 | S f => if n =? 0 then 0 else n mod 2 + ones f (n / 2) end.
Definition key_le (x y : Z) : bool :=
  let a := ones 64 (Z.abs x) in let b := ones 64 (Z.abs y) in (a <? b) || ((a =? b) && (x <=? y)).
Fixpoint ordered (l : list Z) : bool :=
  match l with
  | x :: (y :: _) as rest => key_le x y && ordered rest
  | _ => true
  end.
Definition count (l : list Z) (x : Z) : nat := count_occ Z.eq_dec l x.
Definition same_multiset (a b : list Z) : bool := forallb (fun x => Nat.eqb (count a x) (count b x)) (a ++ b).
Definition sort_array_spec (arr r : list Z) : Prop := (same_multiset r arr && ordered r) = true.
