(* The sum of the squares of the numbers, each first rounded up to an integer (ceiling). *)
From Coq Require Import QArith Qround.
Definition sum_squares_spec (lst : list Q) (r : Z) : Prop :=
  r = fold_right Z.add 0%Z (map (fun x => Z.mul (Qceiling x) (Qceiling x)) lst).
