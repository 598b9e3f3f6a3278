(* The largest index i >= 1 with arr[i] < arr[i - 1], or -1 when there is none. *)
Local Open Scope Z_scope.
Definition drops_at (arr : list Z) (i : nat) : bool := nth i arr 0 <? nth (pred i) arr 0.
Definition can_arrange_spec (arr : list Z) (r : Z) : Prop :=
  r = match rev (filter (drops_at arr) (seq 1 (length arr - 1))) with
      | nil => -1
      | i :: _ => Z.of_nat i
      end.
