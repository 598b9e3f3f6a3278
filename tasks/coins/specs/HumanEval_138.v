(* True iff n is the sum of exactly four positive even numbers. *)
Local Open Scope Z_scope.
Fixpoint count_from (lo : Z) (n : nat) : list Z :=
  match n with O => nil | S m => lo :: count_from (lo + 1) m end.
Definition range (lo hi : Z) : list Z := count_from lo (Z.to_nat (hi - lo + 1)).

Definition four_evens_sum (n : Z) : bool :=
  let evens := filter Z.even (range 1 n) in
  existsb (fun a => existsb (fun b => existsb (fun c =>
    let d := n - a - b - c in (0 <? d) && Z.even d) evens) evens) evens.
Definition is_equal_to_sum_even_spec (n : Z) (r : bool) : Prop :=
  r = four_evens_sum n.
