(* The list with fewer characters in total; the first one when the totals are equal. *)
Definition total (l : list string) : nat := fold_right (fun s n => String.length s + n) 0 l.
Definition total_match_spec (lst1 lst2 r : list string) : Prop :=
  r = if Nat.leb (total lst1) (total lst2) then lst1 else lst2.
