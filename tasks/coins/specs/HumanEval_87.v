(* The coordinates (row, column) of every occurrence of x, rows in ascending order and, within a
   row, columns in descending order. *)
Local Open Scope Z_scope.
Definition columns_of (x : Z) (row : list Z) : list Z :=
  map (fun p => Z.of_nat (fst p)) (filter (fun p => snd p =? x) (combine (seq 0 (length row)) row)).
Definition get_row_spec (lst : list (list Z)) (x : Z) (r : list (Z * Z)) : Prop :=
  r = flat_map (fun p => map (fun j => (Z.of_nat (fst p), j)) (rev (columns_of x (snd p))))
               (combine (seq 0 (length lst)) lst).
