(* The sum of the squares of the numbers that are positive odd integers (other numbers ignored;
   a number counts as an integer when its exact value is one). *)
From Coq Require Import QArith.
Definition positive_odd (x : Q) : bool :=
  let y := Qred x in Pos.eqb (Qden y) 1 && Z.ltb 0 (Qnum y) && Z.odd (Qnum y).
Definition double_the_difference_spec (lst : list Q) (r : Z) : Prop :=
  r = fold_right Z.add 0%Z (map (fun x => Z.mul (Qnum (Qred x)) (Qnum (Qred x))) (filter positive_odd lst)).
