(* Keep, in order, exactly the elements that occur once. *)
Local Open Scope Z_scope.
Definition occurrences (l : list Z) (x : Z) : nat := count_occ Z.eq_dec l x.
Definition remove_duplicates_spec (numbers r : list Z) : Prop :=
  r = filter (fun x => Nat.eqb (occurrences numbers x) 1) numbers.
