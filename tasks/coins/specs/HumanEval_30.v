(* The strictly positive elements, in their original order. *)
Local Open Scope Z_scope.
Definition get_positive_spec (l r : list Z) : Prop := r = filter (fun x => 0 <? x) l.
