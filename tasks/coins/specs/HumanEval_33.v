(* r equals l at every index not divisible by three, and its values at the indices divisible by
   three are those of l (the same multiset) in non-decreasing order. *)
Local Open Scope Z_scope.
Definition at_thirds (keep : bool) (l : list Z) : list Z :=
  map snd (filter (fun p => Bool.eqb keep (Nat.eqb (Nat.modulo (fst p) 3) 0)) (combine (seq 0 (length l)) l)).
Fixpoint non_decreasing (l : list Z) : bool :=
  match l with
  | x :: (y :: _) as rest => (x <=? y) && non_decreasing rest
  | _ => true
  end.
Definition count (l : list Z) (x : Z) : nat := count_occ Z.eq_dec l x.
Definition same_multiset (a b : list Z) : bool := forallb (fun x => Nat.eqb (count a x) (count b x)) (a ++ b).
Definition sort_third_spec (l r : list Z) : Prop :=
  length r = length l /\ at_thirds false r = at_thirds false l /\
  non_decreasing (at_thirds true r) && same_multiset (at_thirds true r) (at_thirds true l) = true.
