(* The number of hexadecimal digits of num that are primes: 2, 3, 5, 7, B (11) and D (13). *)
Definition prime_hex (c : ascii) : bool := existsb (Ascii.eqb c) (list_ascii_of_string "2357BD").
Definition hex_key_spec (num : string) (r : Z) : Prop :=
  r = Z.of_nat (length (filter prime_hex (list_ascii_of_string num))).
