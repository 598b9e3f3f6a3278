(* fib4 0 = 0, fib4 1 = 0, fib4 2 = 2, fib4 3 = 0, and each later term is the sum of the four before it. *)
Local Open Scope Z_scope.
Fixpoint fib4_from (k : nat) (a b c d : Z) : Z :=
  match k with O => a | S k' => fib4_from k' b c d (a + b + c + d) end.
Definition fib4_pre (n : Z) : Prop := 0 <= n.
Definition fib4_spec (n r : Z) : Prop := r = fib4_from (Z.to_nat n) 0 0 2 0.
