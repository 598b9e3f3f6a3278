(* True iff two elements at distinct positions sum to zero. *)
Local Open Scope Z_scope.
Fixpoint some_pair_sums_to_zero (l : list Z) : bool :=
  match l with
  | nil => false
  | x :: rest => existsb (fun y => x + y =? 0) rest || some_pair_sums_to_zero rest
  end.
Definition pairs_sum_to_zero_spec (l : list Z) (r : bool) : Prop := r = some_pair_sums_to_zero l.
