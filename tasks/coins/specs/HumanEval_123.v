(* The distinct odd numbers of the Collatz sequence from n (n, then n / 2 or 3 n + 1, ... down to
   1), in increasing order. *)
Local Open Scope Z_scope.
Fixpoint collatz (fuel : nat) (n : Z) : list Z :=
  match fuel with
  | O => nil
  | S f => n :: (if n <=? 1 then nil else collatz f (if Z.even n then n / 2 else 3 * n + 1))
  end.
Fixpoint increasing (l : list Z) : bool :=
  match l with
  | x :: (y :: _) as rest => (x <? y) && increasing rest
  | _ => true
  end.
Definition get_odd_collatz_pre (n : Z) : Prop := 1 <= n.
Definition get_odd_collatz_spec (n : Z) (r : list Z) : Prop :=
  let odds := filter Z.odd (collatz 1000 n) in
  (increasing r && forallb (fun x => existsb (Z.eqb x) r) odds && forallb (fun x => existsb (Z.eqb x) odds) r) = true.
