(* fibfib 0 = 0, fibfib 1 = 0, fibfib 2 = 1, then the sum of the three previous terms. *)
Local Open Scope Z_scope.
Fixpoint triple (k : nat) : Z * Z * Z :=
  match k with
  | O => (0, 0, 1)
  | S j => let '(a, b, c) := triple j in (b, c, a + b + c)
  end.
Definition fibfib_pre (n : Z) : Prop := 0 <= n.
Definition fibfib_spec (n r : Z) : Prop := r = fst (fst (triple (Z.to_nat n))).
