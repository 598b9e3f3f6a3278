(* The mean of the absolute deviations from the mean, within 10^-6 (the list is non-empty). *)
From Coq Require Import QArith Qabs.
Local Open Scope Q_scope.
Definition mean (l : list Q) : Q := fold_right Qplus 0 l / inject_Z (Z.of_nat (length l)).
Definition mad (l : list Q) : Q := mean (map (fun x => Qabs (x - mean l)) l).
Definition mean_absolute_deviation_pre (numbers : list Q) : Prop := (0 < length numbers)%nat.
Definition mean_absolute_deviation_spec (numbers : list Q) (r : Q) : Prop :=
  negb (Qle_bool (1 # 1000000) (Qabs (r - mad numbers))) = true.
