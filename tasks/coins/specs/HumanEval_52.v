(* True iff every element is strictly below the threshold. *)
Local Open Scope Z_scope.
Definition below_threshold_spec (l : list Z) (t : Z) (r : bool) : Prop := r = forallb (fun x => x <? t) l.
