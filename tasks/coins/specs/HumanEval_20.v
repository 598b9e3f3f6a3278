(* r = (a, b) with a <= b is the pair of numbers at two different positions of the list, and no two
   numbers at different positions are closer to each other (the list has at least two). *)
From Coq Require Import QArith Qabs.
Local Open Scope Q_scope.
Fixpoint pairs (l : list Q) : list (Q * Q) :=
  match l with nil => nil | x :: rest => map (fun y => (x, y)) rest ++ pairs rest end.
Definition is_pair (a b : Q) (p : Q * Q) : bool :=
  (Qeq_bool (fst p) a && Qeq_bool (snd p) b) || (Qeq_bool (fst p) b && Qeq_bool (snd p) a).
Definition find_closest_elements_pre (numbers : list Q) : Prop := (2 <= length numbers)%nat.
Definition find_closest_elements_spec (numbers : list Q) (r : Q * Q) : Prop :=
  Qle_bool (fst r) (snd r) = true /\
  existsb (is_pair (fst r) (snd r)) (pairs numbers) = true /\
  forallb (fun p => Qle_bool (snd r - fst r) (Qabs (fst p - snd p))) (pairs numbers) = true.
