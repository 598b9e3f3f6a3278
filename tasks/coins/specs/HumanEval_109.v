(* True iff arr is empty or some rotation of it is in non-decreasing order. *)
Local Open Scope Z_scope.
Fixpoint non_decreasing (l : list Z) : bool :=
  match l with
  | x :: (y :: _) as rest => (x <=? y) && non_decreasing rest
  | _ => true
  end.
Definition rotation (l : list Z) (k : nat) : list Z := skipn k l ++ firstn k l.
Definition move_one_ball_spec (arr : list Z) (r : bool) : Prop :=
  r = Nat.eqb (length arr) 0 || existsb (fun k => non_decreasing (rotation arr k)) (seq 0 (length arr)).
