(* A point where the polynomial xs[0] + xs[1] x + ... + xs[n] x^n is zero, within 10^-4 (the
   test's tolerance on the value of the polynomial). *)
From Coq Require Import QArith Qabs.
Local Open Scope Q_scope.
Definition poly (xs : list Q) (x : Q) : Q := fold_right (fun c acc => c + x * acc) 0 xs.
Definition find_zero_pre (xs : list Q) : Prop := Nat.even (length xs) = true.
Definition find_zero_spec (xs : list Q) (r : Q) : Prop :=
  negb (Qle_bool (1 # 10000) (Qabs (poly xs r))) = true.
