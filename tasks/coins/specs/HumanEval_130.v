(* The first n + 1 values of the sequence with tri 0 = 1, tri 1 = 3, tri i = 1 + i / 2 for even i
   and tri i = tri (i - 1) + tri (i - 2) + tri (i + 1) for odd i >= 3 (where tri (i + 1) = 1 + (i + 1) / 2). *)
From Coq Require Import QArith.
Local Open Scope Q_scope.
Definition even_term (i : nat) : Q := 1 + inject_Z (Z.of_nat i) / 2.
Definition follows (r : list Q) (i : nat) : bool :=
  match i with
  | O => Qeq_bool (nth 0 r 0) 1
  | 1%nat => Qeq_bool (nth 1 r 0) 3
  | _ => if Nat.even i then Qeq_bool (nth i r 0) (even_term i)
         else Qeq_bool (nth i r 0) (nth (i - 1) r 0 + nth (i - 2) r 0 + even_term (S i))
  end.
Definition tri_pre (n : Z) : Prop := (0 <= n)%Z.
Definition tri_spec (n : Z) (r : list Q) : Prop :=
  Z.of_nat (length r) = (n + 1)%Z /\ forallb (follows r) (seq 0 (length r)) = true.
