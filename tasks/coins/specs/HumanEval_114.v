(* The minimum sum over all non-empty contiguous sub-arrays. *)
Local Open Scope Z_scope.
Definition slice_sum (l : list Z) (i j : nat) : Z := fold_right Z.add 0 (firstn (j - i) (skipn i l)).
Definition all_slices (n : nat) : list (nat * nat) :=
  flat_map (fun i => map (fun j => (i, j)) (seq (S i) (n - i))) (seq 0 n).
Definition minSubArraySum_pre (nums : list Z) : Prop := nums <> nil.
Definition minSubArraySum_spec (nums : list Z) (r : Z) : Prop :=
  let sums := map (fun p => slice_sum nums (fst p) (snd p)) (all_slices (length nums)) in
  existsb (Z.eqb r) sums = true /\ forallb (fun s => r <=? s) sums = true.
