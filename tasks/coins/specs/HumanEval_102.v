(* The largest even number in [x, y], or -1 when there is none. *)
Local Open Scope Z_scope.
Fixpoint count_from (lo : Z) (n : nat) : list Z :=
  match n with O => nil | S m => lo :: count_from (lo + 1) m end.
Definition range (lo hi : Z) : list Z := count_from lo (Z.to_nat (hi - lo + 1)).

Definition choose_num_spec (x y r : Z) : Prop :=
  let evens := filter Z.even (range x y) in
  match evens with
  | nil => r = -1
  | _ => existsb (Z.eqb r) evens = true /\ forallb (fun e => e <=? r) evens = true
  end.
