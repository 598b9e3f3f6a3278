(* (the number of even, the number of odd) palindromes among 1 .. n; a palindrome reads the
   same backwards in decimal. *)
Local Open Scope Z_scope.
Fixpoint count_from (lo : Z) (n : nat) : list Z :=
  match n with O => nil | S m => lo :: count_from (lo + 1) m end.
Fixpoint digits (fuel : nat) (n : Z) : list Z :=
  match fuel with O => nil | S f => if n <? 10 then n :: nil else n mod 10 :: digits f (n / 10) end.
Definition palindrome (n : Z) : bool :=
  if list_eq_dec Z.eq_dec (rev (digits 64 n)) (digits 64 n) then true else false.
Definition even_odd_palindrome_pre (n : Z) : Prop := 1 <= n.
Definition even_odd_palindrome_spec (n : Z) (r : Z * Z) : Prop :=
  let ps := filter palindrome (count_from 1 (Z.to_nat n)) in
  r = (Z.of_nat (length (filter Z.even ps)), Z.of_nat (length (filter Z.odd ps))).
