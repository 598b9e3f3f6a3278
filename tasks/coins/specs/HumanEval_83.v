(* The n-digit positive integers starting or ending with 1: for n = 1 just 1; otherwise
   10^(n-1) start with 1, 9 * 10^(n-2) end with 1 and 10^(n-2) do both. *)
Local Open Scope Z_scope.
Definition starts_one_ends_pre (n : Z) : Prop := 1 <= n.
Definition starts_one_ends_spec (n r : Z) : Prop :=
  r = if n =? 1 then 1 else 10 ^ (n - 1) + 9 * 10 ^ (n - 2) - 10 ^ (n - 2).
