(* True iff some rotation of b (b itself included) occurs as a contiguous substring of a. *)
Definition rotation (b : string) (k : nat) : string := substring k (String.length b) b ++ substring 0 k b.
Definition occurs_in (a p : string) : bool :=
  existsb (fun i => String.eqb (substring i (String.length p) a) p) (seq 0 (String.length a - String.length p + 1)).
Definition cycpattern_check_spec (a b : string) (r : bool) : Prop :=
  r = existsb (fun k => occurs_in a (rotation b k)) (seq 0 (S (String.length b))).
