(* The same elements (a permutation), in ascending order when the first and last elements sum to
   an odd number and in descending order otherwise. *)
Local Open Scope Z_scope.
Fixpoint ordered (le : Z -> Z -> bool) (l : list Z) : bool :=
  match l with
  | x :: (y :: _) as rest => le x y && ordered le rest
  | _ => true
  end.
Definition count (l : list Z) (x : Z) : nat := count_occ Z.eq_dec l x.
Definition same_multiset (a b : list Z) : bool := forallb (fun x => Nat.eqb (count a x) (count b x)) (a ++ b).
Definition sort_array_spec (array r : list Z) : Prop :=
  let ascending := Z.odd (hd 0 array + last array 0) in
  (same_multiset r array && ordered (fun x y => if ascending then x <=? y else y <=? x) r) = true.
