(* The prime factors of n from smallest to largest, with multiplicity: every element is prime,
   the list is non-decreasing and its product is n. *)
Local Open Scope Z_scope.
Fixpoint count_from (lo : Z) (n : nat) : list Z :=
  match n with O => nil | S m => lo :: count_from (lo + 1) m end.
Definition range (lo hi : Z) : list Z := count_from lo (Z.to_nat (hi - lo + 1)).
Definition is_prime (n : Z) : bool :=
  (2 <=? n) && forallb (fun d => negb (n mod d =? 0)) (range 2 (Z.sqrt n)).
Fixpoint non_decreasing (l : list Z) : bool :=
  match l with
  | x :: (y :: _) as rest => (x <=? y) && non_decreasing rest
  | _ => true
  end.
Definition factorize_pre (n : Z) : Prop := 1 <= n.
Definition factorize_spec (n : Z) (r : list Z) : Prop :=
  fold_right Z.mul 1 r = n /\ forallb is_prime r && non_decreasing r = true.
