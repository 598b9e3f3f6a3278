(* r is x written in base base (2 <= base <= 10): digits below base, no leading zero, and
   read back in base base it is x (so 0 is the empty string). *)
Local Open Scope Z_scope.
Definition digit (c : ascii) : Z := Z.of_nat (nat_of_ascii c) - 48.
Definition read (base : Z) (s : string) : Z :=
  fold_left (fun acc c => acc * base + digit c) (list_ascii_of_string s) 0.
Definition change_base_pre (x base : Z) : Prop := 0 <= x /\ 2 <= base <= 10.
Definition change_base_spec (x base : Z) (r : string) : Prop :=
  read base r = x /\
  forallb (fun c => (0 <=? digit c) && (digit c <? base)) (list_ascii_of_string r) = true /\
  match list_ascii_of_string r with c :: _ => digit c <> 0 | nil => True end.
