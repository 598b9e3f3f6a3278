(* The words (pieces between single spaces) whose length is prime, in order, joined by spaces. *)
Local Open Scope Z_scope.
Fixpoint words (cur : list ascii) (cs : list ascii) : list string :=
  match cs with
  | nil => string_of_list_ascii cur :: nil
  | c :: rest => if Ascii.eqb c " "%char then string_of_list_ascii cur :: words nil rest else words (cur ++ c :: nil) rest
  end.
Fixpoint count_from (lo : Z) (n : nat) : list Z :=
  match n with O => nil | S m => lo :: count_from (lo + 1) m end.
Definition range (lo hi : Z) : list Z := count_from lo (Z.to_nat (hi - lo + 1)).
Definition is_prime (n : Z) : bool :=
  (2 <=? n) && forallb (fun d => negb (n mod d =? 0)) (range 2 (Z.sqrt n)).
Definition words_in_sentence_spec (sentence r : string) : Prop :=
  r = String.concat " " (filter (fun w => is_prime (Z.of_nat (String.length w))) (words nil (list_ascii_of_string sentence))).
