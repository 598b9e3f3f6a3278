(* r equals l at the odd indices, and its values at the even indices are those of l (the same
   multiset) in non-decreasing order. *)
Local Open Scope Z_scope.
Definition at_evens (keep : bool) (l : list Z) : list Z :=
  map snd (filter (fun p => Bool.eqb keep (Nat.even (fst p))) (combine (seq 0 (length l)) l)).
Fixpoint non_decreasing (l : list Z) : bool :=
  match l with
  | x :: (y :: _) as rest => (x <=? y) && non_decreasing rest
  | _ => true
  end.
Definition count (l : list Z) (x : Z) : nat := count_occ Z.eq_dec l x.
Definition same_multiset (a b : list Z) : bool := forallb (fun x => Nat.eqb (count a x) (count b x)) (a ++ b).
Definition sort_even_spec (l r : list Z) : Prop :=
  length r = length l /\ at_evens false r = at_evens false l /\
  non_decreasing (at_evens true r) && same_multiset (at_evens true r) (at_evens true l) = true.
