(* [] when no value is even; otherwise [v; i] where v is the smallest even value and i the first
   index holding it. *)
Local Open Scope Z_scope.
Definition pluck_spec (arr r : list Z) : Prop :=
  match r with
  | nil => forallb (fun x => negb (Z.even x)) arr = true
  | v :: i :: nil =>
    ((0 <=? i) && (i <? Z.of_nat (length arr)) && (nth (Z.to_nat i) arr 0 =? v) && Z.even v &&
     forallb (fun x => negb (Z.even x) || (v <=? x)) arr &&
     forallb (fun x => negb (x =? v)) (firstn (Z.to_nat i) arr)) = true
  | _ => False
  end.
