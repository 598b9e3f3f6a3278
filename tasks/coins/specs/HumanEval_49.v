(* 2 to the power n, modulo p. *)
Local Open Scope Z_scope.
Definition modp_pre (n p : Z) : Prop := 0 <= n /\ 0 < p.
Definition modp_spec (n p r : Z) : Prop := 0 <= r < p /\ (2 ^ n - r) mod p = 0.
