(* The number of bucket lowerings: each well (row) needs ceil(water / capacity) of them, where its
   water is the sum of its row. *)
Local Open Scope Z_scope.
Definition max_fill_pre (grid : list (list Z)) (capacity : Z) : Prop := 1 <= capacity.
Definition max_fill_spec (grid : list (list Z)) (capacity r : Z) : Prop :=
  r = fold_right Z.add 0 (map (fun row => (fold_right Z.add 0 row + capacity - 1) / capacity) grid).
