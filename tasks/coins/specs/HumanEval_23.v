(* The number of characters in the string. *)
Definition strlen_spec (s : string) (r : Z) : Prop := r = Z.of_nat (String.length s).
