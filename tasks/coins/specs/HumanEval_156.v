(* The standard Roman numeral of number (1 <= number <= 1000) in lowercase: repeatedly the largest
   of m, cm, d, cd, c, xc, l, xl, x, ix, v, iv, i whose value fits in what is left. *)
Local Open Scope Z_scope.
Definition numerals : list (Z * string) :=
  ((1000, "m") :: (900, "cm") :: (500, "d") :: (400, "cd") :: (100, "c") :: (90, "xc") :: (50, "l") ::
   (40, "xl") :: (10, "x") :: (9, "ix") :: (5, "v") :: (4, "iv") :: (1, "i") :: nil)%string.
Fixpoint roman (fuel : nat) (n : Z) : string :=
  match fuel with
  | O => ""%string
  | S f =>
    match find (fun p => fst p <=? n) numerals with
    | Some (v, s) => (s ++ roman f (n - v))%string
    | None => ""%string
    end
  end.
Definition int_to_mini_roman_pre (number : Z) : Prop := 1 <= number <= 1000.
Definition int_to_mini_roman_spec (number : Z) (r : string) : Prop := r = roman 64 number.
