(* The shortest palindrome that begins with s: r is a palindrome, s is a prefix of r, and no
   palindrome with prefix s is shorter. A palindrome of length L >= |s| with prefix s can only be
   s followed by the reverse of the first L - |s| characters of s, so each shorter length is ruled
   out by checking that one candidate. *)
Definition chars (s : string) : list ascii := list_ascii_of_string s.
Definition same (a b : list ascii) : bool := if list_eq_dec ascii_dec a b then true else false.
Definition palindrome (l : list ascii) : bool := same (rev l) l.
Definition candidate (s : list ascii) (k : nat) : list ascii := s ++ rev (firstn k s).
Definition make_palindrome_spec (s r : string) : Prop :=
  palindrome (chars r) = true /\ String.prefix s r = true /\
  forallb (fun k => negb (palindrome (candidate (chars s) k))) (seq 0 (String.length r - String.length s)) = true.
