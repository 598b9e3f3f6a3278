(* "YES" iff every odd element of lst1 can be swapped for an even element of lst2, i.e. lst2 has
   at least as many even elements as lst1 has odd ones; "NO" otherwise. *)
Local Open Scope Z_scope.
Definition exchange_spec (lst1 lst2 : list Z) (r : string) : Prop :=
  r = if Nat.leb (length (filter Z.odd lst1)) (length (filter Z.even lst2)) then "YES"%string else "NO"%string.
