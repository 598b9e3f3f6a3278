(* True iff three elements at three different positions sum to zero. *)
Local Open Scope Z_scope.
Fixpoint pair_sums_to (t : Z) (l : list Z) : bool :=
  match l with nil => false | x :: rest => existsb (fun y => x + y =? t) rest || pair_sums_to t rest end.
Fixpoint triple_sums_to_zero (l : list Z) : bool :=
  match l with nil => false | x :: rest => pair_sums_to (- x) rest || triple_sums_to_zero rest end.
Definition triples_sum_to_zero_spec (l : list Z) (r : bool) : Prop := r = triple_sums_to_zero l.
