(* The decimal digits of x rotated right by shift places (the last shift digits moved to the
   front); when shift exceeds the number of digits, the digits reversed. *)
From Coq Require Import DecimalString.
Definition decimal (x : Z) : string := NilZero.string_of_int (Z.to_int x).
Definition rotate_right (s : string) (k : nat) : string :=
  let n := String.length s in substring (n - k) k s ++ substring 0 (n - k) s.
Definition circular_shift_spec (x shift : Z) (r : string) : Prop :=
  let s := decimal x in
  if Z.ltb (Z.of_nat (String.length s)) shift
  then r = string_of_list_ascii (rev (list_ascii_of_string s))
  else r = rotate_right s (Z.to_nat shift).
