(* The n-th Fibonacci number, fib 0 = 0 and fib 1 = 1. *)
Local Open Scope Z_scope.
Fixpoint fib_pair (n : nat) : Z * Z :=
  match n with
  | O => (0, 1)
  | S k => let (a, b) := fib_pair k in (b, a + b)
  end.
Definition fib_spec (n : nat) (r : Z) : Prop := r = fst (fib_pair n).
