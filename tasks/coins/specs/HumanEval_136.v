(* The largest negative and the smallest positive element, each None when absent. *)
Local Open Scope Z_scope.
Definition extreme (pick : Z -> Z -> Z) (l : list Z) : option Z :=
  match l with
  | nil => None
  | x :: rest => Some (fold_left pick rest x)
  end.
Definition largest_smallest_integers_spec (lst : list Z) (r : option Z * option Z) : Prop :=
  fst r = extreme Z.max (filter (fun x => x <? 0) lst) /\
  snd r = extreme Z.min (filter (fun x => 0 <? x) lst).
