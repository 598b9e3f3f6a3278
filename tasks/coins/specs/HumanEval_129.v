(* The lexicographically smallest walk visiting k cells. The values of the grid are distinct, so
   that walk starts on the smallest value and each step moves to the neighbouring cell (sharing an
   edge) with the smallest value: r has k values, r[0] is the grid's minimum and each next value is
   the smallest neighbour of the cell holding the previous one. *)
Local Open Scope Z_scope.
Definition value_at (grid : list (list Z)) (i j : Z) : option Z :=
  if (i <? 0) || (j <? 0) then None
  else nth_error (nth (Z.to_nat i) grid nil) (Z.to_nat j).
Definition cells (grid : list (list Z)) : list (Z * Z * Z) :=
  flat_map (fun p => map (fun q => (Z.of_nat (fst p), Z.of_nat (fst q), snd q)) (combine (seq 0 (length (snd p))) (snd p)))
           (combine (seq 0 (length grid)) grid).
Definition smallest (l : list Z) : Z := fold_right Z.min (hd 0 l) l.
Definition smallest_neighbour (grid : list (list Z)) (v : Z) : Z :=
  match find (fun c => snd c =? v) (cells grid) with
  | Some (i, j, _) =>
    smallest (flat_map (fun o => match o with Some x => x :: nil | None => nil end)
                (value_at grid (i - 1) j :: value_at grid (i + 1) j :: value_at grid i (j - 1) :: value_at grid i (j + 1) :: nil))
  | None => 0
  end.
Definition minPath_pre (grid : list (list Z)) (k : Z) : Prop := 1 <= k.
Definition minPath_spec (grid : list (list Z)) (k : Z) (r : list Z) : Prop :=
  Z.of_nat (length r) = k /\
  nth 0 r 0 = smallest (map snd (cells grid)) /\
  forallb (fun t => nth (S t) r 0 =? smallest_neighbour grid (nth t r 0)) (seq 0 (length r - 1)) = true.
