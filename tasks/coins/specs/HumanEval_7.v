(* The input strings that contain the substring, in their original order. *)
Fixpoint contains (sub s : string) : bool :=
  String.prefix sub s || match s with EmptyString => false | String _ rest => contains sub rest end.
Definition filter_by_substring_spec (strings : list string) (substring : string) (r : list string) : Prop :=
  r = filter (contains substring) strings.
