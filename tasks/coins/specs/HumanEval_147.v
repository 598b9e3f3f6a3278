(* With a[i] = i * i - i + 1 for i = 1 .. n, the number of triples i < j < k such that
   a[i] + a[j] + a[k] is a multiple of 3. *)
Local Open Scope Z_scope.
Fixpoint count_from (lo : Z) (n : nat) : list Z :=
  match n with O => nil | S m => lo :: count_from (lo + 1) m end.
(* Triples are tested on the remainders mod 3 of the a[i]: the pairs j < k of l completing t. *)
Fixpoint pairs_completing (t : nat) (l : list nat) : nat :=
  match l with
  | nil => O
  | x :: rest => length (filter (fun y => Nat.eqb (Nat.modulo (t + x + y) 3) 0) rest) + pairs_completing t rest
  end.
Fixpoint triples (l : list nat) : nat :=
  match l with nil => O | x :: rest => pairs_completing x rest + triples rest end.
Definition get_max_triples_pre (n : Z) : Prop := 1 <= n.
Definition get_max_triples_spec (n r : Z) : Prop :=
  r = Z.of_nat (triples (map (fun i => Z.to_nat ((i * i - i + 1) mod 3)) (count_from 1 (Z.to_nat n)))).
