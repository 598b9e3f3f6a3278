(* x = a/b and n = c/d; true iff the product (a c) / (b d) is a whole number. *)
Local Open Scope Z_scope.
Definition digit (c : ascii) : Z := Z.of_nat (nat_of_ascii c) - 48.
Definition number (cs : list ascii) : Z := fold_left (fun acc c => acc * 10 + digit c) cs 0.
Fixpoint split_slash (cur : list ascii) (cs : list ascii) : Z * Z :=
  match cs with
  | nil => (number cur, 1)
  | c :: rest => if Ascii.eqb c "/"%char then (number cur, number rest) else split_slash (cur ++ c :: nil) rest
  end.
Definition fraction (s : string) : Z * Z := split_slash nil (list_ascii_of_string s).
Definition simplify_spec (x n : string) (r : bool) : Prop :=
  let (a, b) := fraction x in let (c, d) := fraction n in r = ((a * c) mod (b * d) =? 0).
