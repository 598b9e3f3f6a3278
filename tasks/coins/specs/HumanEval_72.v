(* True iff q is a palindrome and its sum is at most w. *)
Local Open Scope Z_scope.
Definition list_eqb (a b : list Z) : bool :=
  Nat.eqb (length a) (length b) && forallb (fun p => fst p =? snd p) (combine a b).
Definition will_it_fly_spec (q : list Z) (w : Z) (r : bool) : Prop :=
  r = list_eqb q (rev q) && (fold_right Z.add 0 q <=? w).
