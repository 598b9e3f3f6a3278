(* True iff all three values are integers (Python's int, booleans included) and one of them is
   the sum of the other two; any float, string or other value gives false, even 3.0. *)
Local Open Scope Z_scope.
Definition python_int (v : pyvalue) : option Z :=
  match v with
  | PyInt z => Some z
  | PyBool b => Some (Z.b2z b)
  | _ => None
  end.
Definition any_int_spec (x y z : pyvalue) (r : bool) : Prop :=
  match python_int x, python_int y, python_int z with
  | Some a, Some b, Some c => r = ((a + b =? c) || (a + c =? b) || (b + c =? a))%bool
  | _, _, _ => r = false
  end.
