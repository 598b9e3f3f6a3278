(* The sum of the entries after squaring those at indices divisible by 3 and cubing those at
   indices divisible by 4 but not by 3. *)
Local Open Scope Z_scope.
Definition term (p : nat * Z) : Z :=
  let (i, x) := p in
  if Nat.eqb (Nat.modulo i 3) 0 then x * x else if Nat.eqb (Nat.modulo i 4) 0 then x * x * x else x.
Definition sum_squares_spec (lst : list Z) (r : Z) : Prop :=
  r = fold_right Z.add 0 (map term (combine (seq 0 (length lst)) lst)).
