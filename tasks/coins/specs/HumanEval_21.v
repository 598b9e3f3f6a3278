(* Each number mapped by the linear transform that sends the minimum to 0 and the maximum to 1,
   position by position, within 10^-6 (at least two numbers, not all equal). *)
From Coq Require Import QArith Qabs Qminmax.
Local Open Scope Q_scope.
Definition lowest (l : list Q) : Q := fold_right Qmin (hd 0 l) l.
Definition highest (l : list Q) : Q := fold_right Qmax (hd 0 l) l.
Definition scaled (l : list Q) (x : Q) : Q := (x - lowest l) / (highest l - lowest l).
Definition close (a b : Q) : bool := negb (Qle_bool (1 # 1000000) (Qabs (a - b))).
Definition rescale_to_unit_pre (numbers : list Q) : Prop := negb (Qle_bool (highest numbers) (lowest numbers)) = true.
Definition rescale_to_unit_spec (numbers r : list Q) : Prop :=
  length r = length numbers /\
  forallb (fun p => close (fst p) (scaled numbers (snd p))) (combine r numbers) = true.
