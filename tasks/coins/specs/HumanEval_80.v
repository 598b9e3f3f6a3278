(* True iff s has at least 3 characters and any 3 consecutive characters are pairwise different. *)
Definition distinct3 (s : string) (i : nat) : bool :=
  match get i s, get (S i) s, get (S (S i)) s with
  | Some a, Some b, Some c => negb (Ascii.eqb a b || Ascii.eqb b c || Ascii.eqb a c)
  | _, _, _ => false
  end.
Definition is_happy_spec (s : string) (r : bool) : Prop :=
  r = Nat.leb 3 (String.length s) && forallb (distinct3 s) (seq 0 (String.length s - 2)).
