(* Bitwise xor of two equally long strings of '0' and '1'. *)
Definition xor_bit (x y : ascii) : ascii := if Ascii.eqb x y then "0"%char else "1"%char.
Definition string_xor_spec (a b r : string) : Prop :=
  String.length r = String.length a /\
  forallb (fun i => match String.get i r, String.get i a, String.get i b with
                    | Some z, Some x, Some y => Ascii.eqb z (xor_bit x y)
                    | _, _, _ => false
                    end) (seq 0 (String.length a)) = true.
