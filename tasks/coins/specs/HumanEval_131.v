(* The product of the odd digits of n, or 0 when all digits are even. *)
Local Open Scope Z_scope.
Fixpoint digits_of (fuel : nat) (n : Z) : list Z :=
  match fuel with
  | O => nil
  | S f => if n <? 10 then n :: nil else (n mod 10) :: digits_of f (n / 10)
  end.
Definition digits_pre (n : Z) : Prop := 0 < n.
Definition digits_spec (n r : Z) : Prop :=
  let odd := filter Z.odd (digits_of 64 n) in
  match odd with
  | nil => r = 0
  | _ => r = fold_right Z.mul 1 odd
  end.
