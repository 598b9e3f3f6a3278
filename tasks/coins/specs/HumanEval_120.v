(* The k largest elements of arr (with multiplicity) in non-decreasing order: r has k elements,
   is sorted, is contained in arr as a multiset, and whatever of arr it leaves out is no larger
   than its smallest element. *)
Local Open Scope Z_scope.
Fixpoint non_decreasing (l : list Z) : bool :=
  match l with
  | x :: (y :: _) as rest => (x <=? y) && non_decreasing rest
  | _ => true
  end.
Definition count (l : list Z) (x : Z) : nat := count_occ Z.eq_dec l x.
Definition maximum_pre (arr : list Z) (k : Z) : Prop := 0 <= k <= Z.of_nat (length arr).
Definition maximum_spec (arr : list Z) (k : Z) (r : list Z) : Prop :=
  Z.of_nat (length r) = k /\
  (non_decreasing r && forallb (fun x => Nat.leb (count r x) (count arr x)) r &&
   match r with
   | nil => true
   | smallest :: _ => forallb (fun x => Nat.eqb (count r x) (count arr x) || (x <=? smallest)) arr
   end) = true.
