(* "class_name.E" where E is the first extension of greatest strength, the strength being the
   number of uppercase minus the number of lowercase letters. *)
Local Open Scope Z_scope.
Definition between (lo hi : nat) (c : ascii) : bool := Nat.leb lo (nat_of_ascii c) && Nat.leb (nat_of_ascii c) hi.
Definition strength (e : string) : Z :=
  let cs := list_ascii_of_string e in
  Z.of_nat (length (filter (between 65 90) cs)) - Z.of_nat (length (filter (between 97 122) cs)).
Definition Strongest_Extension_pre (class_name : string) (extensions : list string) : Prop :=
  Nat.ltb 0 (length extensions) = true.
Definition Strongest_Extension_spec (class_name : string) (extensions : list string) (r : string) : Prop :=
  let best := fold_right Z.max (strength (hd ""%string extensions)) (map strength extensions) in
  let first_best := match find (fun e => strength e =? best) extensions with Some e => e | None => ""%string end in
  r = (class_name ++ "." ++ first_best)%string.
