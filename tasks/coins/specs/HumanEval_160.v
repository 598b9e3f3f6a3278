(* The value of operand[0] op[0] operand[1] op[1] ... with Python's precedence: "**" first (right
   to left), then "*" and "//" (floor division), then "+" and "-", each of those left to right. *)
Local Open Scope Z_scope.
Definition apply (o : string) (x y : Z) : Z :=
  if String.eqb o "+" then x + y else if String.eqb o "-" then x - y else if String.eqb o "*" then x * y
  else if String.eqb o "//" then x / y else if String.eqb o "**" then x ^ y else 0.
(* One left-to-right pass combining the neighbours joined by the operators sel accepts
   (combine receives the accumulated left value first). *)
Fixpoint pass (sel : string -> bool) (combine : string -> Z -> Z -> Z) (acc : Z) (ops : list string) (xs : list Z)
  : list string * list Z :=
  match ops, xs with
  | o :: ops', x :: xs' =>
    if sel o then pass sel combine (combine o acc x) ops' xs'
    else let (os, ys) := pass sel combine x ops' xs' in (o :: os, acc :: ys)
  | _, _ => (nil, acc :: nil)
  end.
Definition powers (ops : list string) (xs : list Z) : list string * list Z :=
  let (os, ys) := pass (String.eqb "**") (fun o acc x => apply o x acc) (hd 0 (rev xs)) (rev ops) (tl (rev xs)) in
  (rev os, rev ys).
Definition level (names : list string) (ops : list string) (xs : list Z) : list string * list Z :=
  pass (fun o => existsb (String.eqb o) names) apply (hd 0 xs) ops (tl xs).
Definition evaluate (ops : list string) (xs : list Z) : Z :=
  let (o1, x1) := powers ops xs in
  let (o2, x2) := level ("*" :: "//" :: nil)%string o1 x1 in
  let (_, x3) := level ("+" :: "-" :: nil)%string o2 x2 in hd 0 x3.
Definition do_algebra_pre (operator : list string) (operand : list Z) : Prop :=
  S (length operator) = length operand.
Definition do_algebra_spec (operator : list string) (operand : list Z) (r : Z) : Prop := r = evaluate operator operand.
