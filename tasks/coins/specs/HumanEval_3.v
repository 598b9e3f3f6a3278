(* True iff the running balance, starting at zero, ever drops below zero. *)
Local Open Scope Z_scope.
Fixpoint balances (start : Z) (ops : list Z) : list Z :=
  match ops with
  | nil => nil
  | x :: rest => (start + x) :: balances (start + x) rest
  end.
Definition below_zero_spec (operations : list Z) (r : bool) : Prop :=
  r = existsb (fun b => b <? 0) (balances 0 operations).
