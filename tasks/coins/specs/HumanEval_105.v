(* The names of the elements between 1 and 9, largest first, each as often as it occurs;
   other elements are ignored. *)
Local Open Scope Z_scope.
Definition name (d : Z) : string :=
  nth (Z.to_nat d) ("" :: "One" :: "Two" :: "Three" :: "Four" :: "Five" :: "Six" :: "Seven" :: "Eight" :: "Nine" :: nil)%string ""%string.
Definition by_length_spec (arr : list Z) (r : list string) : Prop :=
  r = flat_map (fun d => repeat (name d) (count_occ Z.eq_dec arr d)) (9 :: 8 :: 7 :: 6 :: 5 :: 4 :: 3 :: 2 :: 1 :: nil).
