(* Strictly increasing, and holding exactly the elements of l. *)
Local Open Scope Z_scope.
Fixpoint increasing (l : list Z) : bool :=
  match l with
  | x :: ((y :: _) as rest) => (x <? y) && increasing rest
  | _ => true
  end.
Definition mem (x : Z) (l : list Z) : bool := existsb (Z.eqb x) l.
Definition unique_spec (l r : list Z) : Prop :=
  increasing r = true /\ forallb (fun x => mem x r) l = true /\ forallb (fun x => mem x l) r = true.
