(* -1 unless each side is shorter than the sum of the other two; otherwise the area (Heron:
   area^2 = p (p - a) (p - b) (p - c) with p the half perimeter) rounded to two decimals: r is
   k / 100 for an integer k (within 10^-6, as a float) and k / 100 is within 1/200 of the area. *)
From Coq Require Import QArith Qabs Qround.
Local Open Scope Q_scope.
Definition valid (a b c : Z) : bool := (c <? a + b)%Z && (a <? b + c)%Z && (b <? a + c)%Z.
Definition area_squared (a b c : Z) : Q :=
  let p := inject_Z (a + b + c) / 2 in p * (p - inject_Z a) * (p - inject_Z b) * (p - inject_Z c).
Definition hundredths (r : Q) : Z := Qfloor (r * 100 + (1 # 2)).
Definition rounded_area (a b c : Z) (r : Q) : bool :=
  let k := inject_Z (hundredths r) / 100 in
  negb (Qle_bool (1 # 1000000) (Qabs (r - k))) && Qle_bool 0 k &&
  Qle_bool ((k - (1 # 200)) * (k - (1 # 200))) (area_squared a b c) &&
  Qle_bool (area_squared a b c) ((k + (1 # 200)) * (k + (1 # 200))).
Definition triangle_area_spec (a b c : Z) (r : Q) : Prop :=
  if valid a b c then rounded_area a b c r = true else r == -1.
