(* Each GPA's letter grade, in order: 4.0 (or more) A+, above 3.7 A, above 3.3 A-, above 3.0 B+,
   above 2.7 B, above 2.3 B-, above 2.0 C+, above 1.7 C, above 1.3 C-, above 1.0 D+, above 0.7 D,
   above 0.0 D-, otherwise E (thresholds are the exact decimals). *)
From Coq Require Import QArith.
Local Open Scope Q_scope.
Definition above (g t : Q) : bool := negb (Qle_bool g t).
Definition letter (g : Q) : string :=
  if Qle_bool 4 g then "A+" else if above g (37 # 10) then "A" else if above g (33 # 10) then "A-"
  else if above g 3 then "B+" else if above g (27 # 10) then "B" else if above g (23 # 10) then "B-"
  else if above g 2 then "C+" else if above g (17 # 10) then "C" else if above g (13 # 10) then "C-"
  else if above g 1 then "D+" else if above g (7 # 10) then "D" else if above g 0 then "D-" else "E".
Definition numerical_letter_grade_spec (grades : list Q) (r : list string) : Prop := r = map letter grades.
