(* Coefficients of the derivative of the polynomial xs[0] + xs[1] x + xs[2] x^2 + ... *)
Local Open Scope Z_scope.
Definition derivative_spec (xs r : list Z) : Prop :=
  length r = pred (length xs) /\
  forallb (fun i => nth i r 0 =? Z.of_nat (S i) * nth (S i) xs 0) (seq 0 (length r)) = true.
