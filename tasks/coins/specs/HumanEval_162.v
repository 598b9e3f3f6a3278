(* Some of the lowercase hexadecimal MD5 digest (RFC 1321) of the text's bytes; None for the
   empty text. *)
Local Open Scope Z_scope.
Definition mask (x : Z) : Z := Z.land x 4294967295.
Definition rotate_left (x c : Z) : Z := mask (Z.lor (Z.shiftl x c) (Z.shiftr x (32 - c))).
Definition complement (x : Z) : Z := 4294967295 - x.
(* K[i] = floor(|sin(i + 1)| * 2^32) *)
Definition K : list Z :=
   3614090360 :: 3905402710 :: 606105819 :: 3250441966 :: 4118548399 :: 1200080426 :: 2821735955 :: 4249261313 ::
   1770035416 :: 2336552879 :: 4294925233 :: 2304563134 :: 1804603682 :: 4254626195 :: 2792965006 :: 1236535329 ::
   4129170786 :: 3225465664 :: 643717713 :: 3921069994 :: 3593408605 :: 38016083 :: 3634488961 :: 3889429448 ::
   568446438 :: 3275163606 :: 4107603335 :: 1163531501 :: 2850285829 :: 4243563512 :: 1735328473 :: 2368359562 ::
   4294588738 :: 2272392833 :: 1839030562 :: 4259657740 :: 2763975236 :: 1272893353 :: 4139469664 :: 3200236656 ::
   681279174 :: 3936430074 :: 3572445317 :: 76029189 :: 3654602809 :: 3873151461 :: 530742520 :: 3299628645 ::
   4096336452 :: 1126891415 :: 2878612391 :: 4237533241 :: 1700485571 :: 2399980690 :: 4293915773 :: 2240044497 ::
   1873313359 :: 4264355552 :: 2734768916 :: 1309151649 :: 4149444226 :: 3174756917 :: 718787259 :: 3951481745 :: nil.
Definition shifts : list Z :=
  flat_map (fun l => l ++ l ++ l ++ l) ((7 :: 12 :: 17 :: 22 :: nil) :: (5 :: 9 :: 14 :: 20 :: nil) ::
                                         (4 :: 11 :: 16 :: 23 :: nil) :: (6 :: 10 :: 15 :: 21 :: nil) :: nil).
(* The message bytes, then 128, then zeros up to 56 mod 64 bytes, then the bit length on 8 bytes, little-endian. *)
Definition padded (bytes : list Z) : list Z :=
  let n := length bytes in
  let zeros := Nat.modulo (119 - Nat.modulo n 64) 64 in
  bytes ++ 128 :: repeat 0 zeros ++ map (fun k => (Z.of_nat n * 8 / 2 ^ (8 * Z.of_nat k)) mod 256) (seq 0 8).
Definition word (block : list Z) (g : nat) : Z :=
  fold_right (fun k acc => acc * 256 + nth (4 * g + k) block 0) 0 (seq 0 4).
Definition step (block : list Z) (state : Z * Z * Z * Z) (i : nat) : Z * Z * Z * Z :=
  let '(a, b, c, d) := state in
  let '(f, g) :=
    if Nat.ltb i 16 then (Z.lor (Z.land b c) (Z.land (complement b) d), i)
    else if Nat.ltb i 32 then (Z.lor (Z.land d b) (Z.land (complement d) c), Nat.modulo (5 * i + 1) 16)
    else if Nat.ltb i 48 then (Z.lxor b (Z.lxor c d), Nat.modulo (3 * i + 5) 16)
    else (Z.lxor c (Z.lor b (complement d)), Nat.modulo (7 * i) 16) in
  let f' := mask (f + a + nth i K 0 + word block g) in
  (d, mask (b + rotate_left f' (nth i shifts 0)), b, c).
Definition compress (state : Z * Z * Z * Z) (block : list Z) : Z * Z * Z * Z :=
  let '(a, b, c, d) := fold_left (step block) (seq 0 64) state in
  let '(a0, b0, c0, d0) := state in (mask (a0 + a), mask (b0 + b), mask (c0 + c), mask (d0 + d)).
Fixpoint blocks (fuel : nat) (bytes : list Z) : list (list Z) :=
  match fuel, bytes with
  | S f, _ :: _ => firstn 64 bytes :: blocks f (skipn 64 bytes)
  | _, _ => nil
  end.
Definition hex_digit (n : Z) : ascii := ascii_of_nat (Z.to_nat (if n <? 10 then 48 + n else 87 + n)).
Definition hex_le (w : Z) : list ascii :=
  flat_map (fun k => let byte := (w / 2 ^ (8 * Z.of_nat k)) mod 256 in hex_digit (byte / 16) :: hex_digit (byte mod 16) :: nil) (seq 0 4).
Definition md5 (s : string) : string :=
  let bytes := padded (map (fun c => Z.of_nat (nat_of_ascii c)) (list_ascii_of_string s)) in
  let '(a, b, c, d) := fold_left compress (blocks (length bytes) bytes) (1732584193, 4023233417, 2562383102, 271733878) in
  string_of_list_ascii (hex_le a ++ hex_le b ++ hex_le c ++ hex_le d).
Definition string_to_md5_spec (text : string) (r : option string) : Prop :=
  r = if String.eqb text "" then None else Some (md5 text).
