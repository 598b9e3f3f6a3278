(* The same number words, from smallest to largest, separated by single spaces: each of "zero"
   .. "nine" appears as often as in the input, in increasing order of value. *)
Fixpoint words (cur : list ascii) (cs : list ascii) : list string :=
  match cs with
  | nil => string_of_list_ascii cur :: nil
  | c :: rest => if Ascii.eqb c " "%char then string_of_list_ascii cur :: words nil rest else words (cur ++ c :: nil) rest
  end.
Definition names : list string :=
  ("zero" :: "one" :: "two" :: "three" :: "four" :: "five" :: "six" :: "seven" :: "eight" :: "nine" :: nil)%string.
Definition occurrences (ws : list string) (w : string) : nat := length (filter (String.eqb w) ws).
Definition sort_numbers_spec (numbers r : string) : Prop :=
  let ws := words nil (list_ascii_of_string numbers) in
  r = String.concat " " (flat_map (fun w => repeat w (occurrences ws w)) names).
