(* [carrots eaten in total, carrots left]: eat what is needed if there is enough, else everything. *)
Local Open Scope Z_scope.
Definition eat_spec (number need remaining : Z) (r : list Z) : Prop :=
  let eaten := Z.min need remaining in
  r = (number + eaten) :: (remaining - eaten) :: nil.
