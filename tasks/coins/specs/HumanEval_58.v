(* Strictly increasing, holding exactly the elements found in both lists. *)
Local Open Scope Z_scope.
Fixpoint increasing (l : list Z) : bool :=
  match l with
  | x :: ((y :: _) as rest) => (x <? y) && increasing rest
  | _ => true
  end.
Definition mem (x : Z) (l : list Z) : bool := existsb (Z.eqb x) l.
Definition common_spec (l1 l2 r : list Z) : Prop :=
  increasing r = true /\
  forallb (fun x => mem x l1 && mem x l2) r = true /\
  forallb (fun x => negb (mem x l2) || mem x r) l1 = true.
