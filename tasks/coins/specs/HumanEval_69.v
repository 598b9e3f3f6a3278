(* The greatest positive x occurring at least x times in lst, or -1 when there is none. *)
Local Open Scope Z_scope.
Definition frequency (l : list Z) (x : Z) : Z := Z.of_nat (count_occ Z.eq_dec l x).
Definition qualifies (l : list Z) (x : Z) : bool := (0 <? x) && (x <=? frequency l x).
Definition search_spec (lst : list Z) (r : Z) : Prop :=
  if r =? -1 then forallb (fun x => negb (qualifies lst x)) lst = true
  else qualifies lst r && forallb (fun x => negb (qualifies lst x) || (x <=? r)) lst = true.
