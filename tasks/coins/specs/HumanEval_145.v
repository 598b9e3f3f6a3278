(* The numbers stably sorted by their digit sum, where a negative number's leading digit counts
   as negative (-12 scores -1 + 2): r is ordered by that score and, for each score, lists the
   numbers having it in their original order. *)
Local Open Scope Z_scope.
Fixpoint digits (fuel : nat) (n : Z) : list Z :=
  match fuel with O => nil | S f => if n <? 10 then n :: nil else n mod 10 :: digits f (n / 10) end.
Definition score (n : Z) : Z :=
  let ds := rev (digits 64 (Z.abs n)) in
  fold_right Z.add 0 ds - (if n <? 0 then 2 * hd 0 ds else 0).
Fixpoint ordered (l : list Z) : bool :=
  match l with
  | x :: (y :: _) as rest => (score x <=? score y) && ordered rest
  | _ => true
  end.
Definition with_score (s : Z) (l : list Z) : list Z := filter (fun x => score x =? s) l.
Definition same (a b : list Z) : bool := if list_eq_dec Z.eq_dec a b then true else false.
Definition order_by_points_spec (nums r : list Z) : Prop :=
  length r = length nums /\
  (ordered r && forallb (fun x => same (with_score (score x) r) (with_score (score x) nums)) (nums ++ r)) = true.
