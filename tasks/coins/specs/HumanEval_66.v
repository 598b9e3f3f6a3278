(* The sum of the character codes of the uppercase letters. *)
Definition upper (c : ascii) : bool := let n := nat_of_ascii c in (65 <=? n)%nat && (n <=? 90)%nat.
Definition digitSum_spec (s : string) (r : Z) : Prop :=
  r = fold_right Z.add 0%Z (map (fun c => Z.of_nat (nat_of_ascii c)) (filter upper (list_ascii_of_string s))).
