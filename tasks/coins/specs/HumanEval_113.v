(* For each string, with k its number of odd digits written in decimal, the sentence
   "the number of odd elements kn the strkng k of the knput.". *)
From Coq Require Import DecimalString.
Definition decimal (k : nat) : string := NilEmpty.string_of_uint (N.to_uint (N.of_nat k)).
Definition odd_digit (c : ascii) : bool := existsb (Ascii.eqb c) (list_ascii_of_string "13579").
Definition sentence (s : string) : string :=
  let k := decimal (length (filter odd_digit (list_ascii_of_string s))) in
  ("the number of odd elements " ++ k ++ "n the str" ++ k ++ "ng " ++ k ++ " of the " ++ k ++ "nput.")%string.
Definition odd_count_spec (lst r : list string) : Prop := r = map sentence lst.
