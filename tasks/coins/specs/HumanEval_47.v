(* The median: the middle element of the sorted list, or the mean of the two middle ones when
   the length is even (the list is non-empty). *)
From Coq Require Import QArith.
Fixpoint insert (x : Z) (l : list Z) : list Z :=
  match l with nil => x :: nil | y :: rest => if Z.leb x y then x :: l else y :: insert x rest end.
Definition sorted (l : list Z) : list Z := fold_right insert nil l.
Definition middle (l : list Z) : Q :=
  let s := sorted l in
  let h := Nat.div (length l) 2 in
  if Nat.odd (length l) then inject_Z (nth h s 0%Z)
  else Qmult (inject_Z (nth (pred h) s 0%Z + nth h s 0%Z)) (1 # 2).
Definition median_pre (l : list Z) : Prop := (0 < length l)%nat.
Definition median_spec (l : list Z) (r : Q) : Prop := Qeq_bool r (middle l) = true.
