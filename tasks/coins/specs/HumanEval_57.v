(* True iff the list is entirely non-decreasing or entirely non-increasing. *)
Local Open Scope Z_scope.
Fixpoint sorted_by (le : Z -> Z -> bool) (l : list Z) : bool :=
  match l with
  | x :: ((y :: _) as rest) => le x y && sorted_by le rest
  | _ => true
  end.
Definition monotonic_spec (l : list Z) (r : bool) : Prop :=
  r = sorted_by Z.leb l || sorted_by (fun x y => y <=? x) l.
