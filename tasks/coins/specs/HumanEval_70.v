(* The minimum, then the maximum of what remains, then the minimum of what remains, and so on,
   until every element has been taken once. *)
Local Open Scope Z_scope.
Fixpoint remove_one (x : Z) (l : list Z) : list Z :=
  match l with nil => nil | y :: rest => if y =? x then rest else y :: remove_one x rest end.
Fixpoint strange (fuel : nat) (take_min : bool) (l : list Z) : list Z :=
  match fuel, l with
  | S f, x :: rest =>
    let m := fold_right (if take_min then Z.min else Z.max) x rest in
    m :: strange f (negb take_min) (remove_one m l)
  | _, _ => nil
  end.
Definition strange_sort_list_spec (lst r : list Z) : Prop := r = strange (length lst) true lst.
