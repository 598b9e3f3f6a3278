(* The number of positions i at which substring occurs in string, overlaps counted. *)
Definition occurs_at (s sub : string) (i : nat) : bool := String.eqb (substring i (String.length sub) s) sub.
Definition how_many_times_spec (s sub : string) (r : Z) : Prop :=
  r = Z.of_nat (length (filter (occurs_at s sub) (seq 0 (String.length s - String.length sub + 1)))).
