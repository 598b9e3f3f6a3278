(* A word of the list with the most distinct characters; among those, the alphabetically first. *)
Definition distinct (w : string) : nat := length (nodup ascii_dec (list_ascii_of_string w)).
Definition find_max_pre (words : list string) : Prop := (0 < length words)%nat.
Definition find_max_spec (words : list string) (r : string) : Prop :=
  (existsb (String.eqb r) words &&
   forallb (fun w => Nat.ltb (distinct w) (distinct r) || (Nat.eqb (distinct w) (distinct r) && negb (String.ltb w r))) words) = true.
