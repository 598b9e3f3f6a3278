(* None for an empty list, otherwise the first string of maximal length. *)
Definition max_length (l : list string) : nat := fold_right (fun s m => Nat.max (String.length s) m) 0%nat l.
Definition longest_spec (strings : list string) (r : option string) : Prop :=
  match strings with
  | nil => r = None
  | _ => r = find (fun s => Nat.eqb (String.length s) (max_length strings)) strings
  end.
