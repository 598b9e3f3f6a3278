(* True iff non-decreasing and no value occurs more than twice. *)
Local Open Scope Z_scope.
Fixpoint non_decreasing (l : list Z) : bool :=
  match l with
  | x :: ((y :: _) as rest) => (x <=? y) && non_decreasing rest
  | _ => true
  end.
Definition is_sorted_spec (lst : list Z) (r : bool) : Prop :=
  r = non_decreasing lst && forallb (fun x => (count_occ Z.eq_dec lst x <=? 2)%nat) lst.
