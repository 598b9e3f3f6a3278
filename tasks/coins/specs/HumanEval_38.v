(* The string whose encoding is s: encoding cycles every complete group of three characters
   (abc becomes bca) and leaves a shorter last group as it is. *)
Fixpoint encode (fuel : nat) (cs : list ascii) : list ascii :=
  match fuel, cs with
  | S f, a :: b :: c :: rest => b :: c :: a :: encode f rest
  | _, _ => cs
  end.
Definition decode_cyclic_spec (s r : string) : Prop :=
  encode (length (list_ascii_of_string r)) (list_ascii_of_string r) = list_ascii_of_string s.
