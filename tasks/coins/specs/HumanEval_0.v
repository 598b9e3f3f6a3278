(* True iff two distinct positions hold numbers closer than the threshold. *)
From Coq Require Import QArith Qabs.
Local Open Scope Q_scope.
Definition closer (t a b : Q) : bool := negb (Qle_bool t (Qabs (a - b))).
Fixpoint some_pair_closer (t : Q) (l : list Q) : bool :=
  match l with
  | nil => false
  | x :: rest => existsb (closer t x) rest || some_pair_closer t rest
  end.
Definition has_close_elements_spec (numbers : list Q) (threshold : Q) (r : bool) : Prop :=
  r = some_pair_closer threshold numbers.
