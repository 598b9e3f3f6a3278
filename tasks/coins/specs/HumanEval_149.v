(* The strings of even length, with their multiplicities, ordered by length and, for equal
   lengths, alphabetically. *)
Definition before (a b : string) : bool :=
  Nat.ltb (String.length a) (String.length b) ||
  (Nat.eqb (String.length a) (String.length b) && negb (String.ltb b a)).
Fixpoint ordered (l : list string) : bool :=
  match l with
  | x :: (y :: _) as rest => before x y && ordered rest
  | _ => true
  end.
Definition count (l : list string) (x : string) : nat := count_occ string_dec l x.
Definition same_multiset (a b : list string) : bool := forallb (fun x => Nat.eqb (count a x) (count b x)) (a ++ b).
Definition sorted_list_sum_spec (lst r : list string) : Prop :=
  (ordered r && same_multiset r (filter (fun s => Nat.even (String.length s)) lst)) = true.
