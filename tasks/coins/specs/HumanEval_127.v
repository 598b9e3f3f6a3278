(* "YES" iff the two closed intervals overlap and the length (end - start) of their intersection
   is a prime number; "NO" otherwise. *)
Local Open Scope Z_scope.
Fixpoint count_from (lo : Z) (n : nat) : list Z :=
  match n with O => nil | S m => lo :: count_from (lo + 1) m end.
Definition range (lo hi : Z) : list Z := count_from lo (Z.to_nat (hi - lo + 1)).
Definition is_prime (n : Z) : bool :=
  (2 <=? n) && forallb (fun d => negb (n mod d =? 0)) (range 2 (Z.sqrt n)).
Definition intersection_pre (interval1 interval2 : Z * Z) : Prop :=
  fst interval1 <= snd interval1 /\ fst interval2 <= snd interval2.
Definition intersection_spec (interval1 interval2 : Z * Z) (r : string) : Prop :=
  let len := Z.min (snd interval1) (snd interval2) - Z.max (fst interval1) (fst interval2) in
  r = if is_prime len then "YES"%string else "NO"%string.
