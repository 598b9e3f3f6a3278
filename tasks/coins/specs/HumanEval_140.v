(* Every run of one or two spaces becomes as many underscores; every run of more than two spaces
   becomes a single "-"; other characters are kept. *)
Definition flush (run : nat) : list ascii := if Nat.ltb 2 run then "-"%char :: nil else repeat "_"%char run.
Fixpoint fix_runs (run : nat) (cs : list ascii) : list ascii :=
  match cs with
  | nil => flush run
  | c :: rest => if Ascii.eqb c " "%char then fix_runs (S run) rest else flush run ++ c :: fix_runs 0 rest
  end.
Definition fix_spaces_spec (text r : string) : Prop :=
  r = string_of_list_ascii (fix_runs 0 (list_ascii_of_string text)).
