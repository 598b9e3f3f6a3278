(* The integers among the Python values, in order. Python's isinstance(v, int) also holds for
   booleans, whose integer values are 0 and 1; floats, strings, None and containers are left out. *)
Fixpoint integers_of (values : list pyvalue) : list Z :=
  match values with
  | nil => nil
  | PyInt z :: rest => z :: integers_of rest
  | PyBool b :: rest => Z.b2z b :: integers_of rest
  | _ :: rest => integers_of rest
  end.
Definition filter_integers_spec (values : list pyvalue) (r : list Z) : Prop :=
  r = integers_of values.
