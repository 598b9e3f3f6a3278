(* r occurs in l and no element of l exceeds it. *)
Local Open Scope Z_scope.
Definition max_element_spec (l : list Z) (r : Z) : Prop :=
  existsb (Z.eqb r) l = true /\ forallb (fun x => x <=? r) l = true.
