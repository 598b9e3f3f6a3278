(* The fruits that are neither apples nor oranges: n minus the numbers written in s. *)
Local Open Scope Z_scope.
Fixpoint words (cur : list ascii) (cs : list ascii) : list (list ascii) :=
  match cs with
  | nil => cur :: nil
  | c :: rest => if Ascii.eqb c " "%char then cur :: words nil rest else words (cur ++ c :: nil) rest
  end.
Definition digit (c : ascii) : Z := Z.of_nat (nat_of_ascii c) - 48.
Definition is_number (w : list ascii) : bool :=
  negb (Nat.eqb (length w) 0) && forallb (fun c => (0 <=? digit c) && (digit c <=? 9)) w.
Definition value (w : list ascii) : Z := fold_left (fun acc c => acc * 10 + digit c) w 0.
Definition fruit_distribution_spec (s : string) (n r : Z) : Prop :=
  r = n - fold_right Z.add 0 (map value (filter is_number (words nil (list_ascii_of_string s)))).
