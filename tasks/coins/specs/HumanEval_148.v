(* The planets strictly between the orbits of planet1 and planet2 (in either order), from the
   closest to the Sun outwards; empty when either name is not one of the eight planets. *)
Definition planets : list string :=
  ("Mercury" :: "Venus" :: "Earth" :: "Mars" :: "Jupiter" :: "Saturn" :: "Uranus" :: "Neptune" :: nil)%string.
Fixpoint position (p : string) (l : list string) (i : nat) : option nat :=
  match l with nil => None | q :: rest => if String.eqb p q then Some i else position p rest (S i) end.
Definition bf_spec (planet1 planet2 : string) (r : list string) : Prop :=
  r = match position planet1 planets 0, position planet2 planets 0 with
      | Some i, Some j => firstn (Nat.max i j - Nat.min i j - 1) (skipn (S (Nat.min i j)) planets)
      | _, _ => nil
      end.
