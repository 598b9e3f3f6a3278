(* The second smallest distinct value: Some v with v in lst and exactly one distinct value of lst
   below v, or None when lst has fewer than two distinct values. *)
Local Open Scope Z_scope.
Definition distinct_below (l : list Z) (v : Z) : nat := length (nodup Z.eq_dec (filter (fun x => x <? v) l)).
Definition next_smallest_spec (lst : list Z) (r : option Z) : Prop :=
  match r with
  | None => (length (nodup Z.eq_dec lst) < 2)%nat
  | Some v => existsb (Z.eqb v) lst = true /\ distinct_below lst v = 1%nat
  end.
