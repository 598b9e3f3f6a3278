"""The Ltac of the ladder's ``index-set`` rung: a counted set of indices, built and refuted by counting.

A counting spec such as HumanEval/18's ``exists indices, NoDup indices /\\ (forall i, In i
indices -> match_at i ...) /\\ (forall i, i + length s <= length t -> match_at i ... -> In i
indices) /\\ output = length indices`` has, as its witness, the list of every index below a
bound whose premises hold: no unification finds it, and the search's candidates (0..23, the
goal's lists and their slices) do not hold it. ``coins_count`` reads the conjunct ``forall
i : nat, <bound on i> -> ... -> In i l`` of the existential's body (the body is read at
``l := nil``, where the bound variable ``l`` cannot escape), walks the naturals below the
bound (at most 64), and keeps each whose premises the search proves: that list ``M`` is the
witness, and the search proves the body at it.

A refutation (``~ exists l, ...`` with a wrong ``output``) counts: the list ``l`` it assumes
is duplicate-free, so if every member of ``l`` is in ``M`` (each member satisfies the
membership premise, which bounds it), ``length l <= length M``; and if every member of ``M``
is in ``l`` (the completeness conjunct), ``length M <= length l`` (``NoDup_incl_length``,
in the standard library). One of the two contradicts ``output = length l``. A spec of
another shape makes the rung fail at once; a wrong ``M`` makes the proof fail, never a
wrong verdict, and the kernel checks every proof anyway.
"""

from __future__ import annotations

COUNT_LTAC: tuple[str, ...] = (
    (
        "Ltac coins_count_premises G :=\n"
        "  lazymatch G with\n"
        "  | In _ nil => idtac\n"
        "  | ?A -> ?R => assert_succeeds (assert A by (coins_clear_all; coins_crush)); coins_count_premises R\n"
        "  end."
    ),
    (
        "Ltac coins_count_bound C :=\n"
        "  lazymatch C with\n"
        "  | forall i : nat, (i + ?e <= ?n)%nat -> _ => eval vm_compute in (S n - e)\n"
        "  | forall i : nat, (i < ?n)%nat -> _ => eval vm_compute in n\n"
        "  | forall i : nat, (i <= ?n)%nat -> _ => eval vm_compute in (S n)\n"
        "  end."
    ),
    (
        "Ltac coins_count_members Q k acc tac :=\n"
        "  lazymatch k with\n"
        "  | O => tac acc\n"
        "  | S ?j =>\n"
        "      let G := eval cbv beta in (Q j) in\n"
        "      tryif coins_count_premises G then coins_count_members Q j (j :: acc) tac\n"
        "      else coins_count_members Q j acc tac\n"
        "  end."
    ),
    (
        "Ltac coins_count_witness C tac :=\n"
        "  lazymatch C with\n"
        "  | ?X /\\ ?Y => first [ coins_count_witness X tac | coins_count_witness Y tac ]\n"
        "  | forall i : nat, @?Q i =>\n"
        "      let b := coins_count_bound C in\n"
        "      coins_smaller b 65;\n"
        "      let G := eval cbv beta in (Q O) in\n"
        "      let t := coins_conclusion G in\n"
        "      lazymatch t with In _ nil => coins_count_members Q b (@nil nat) tac end\n"
        "  end."
    ),
    (
        "Ltac coins_count_in l :=\n"
        "  match goal with\n"
        "  | H : forall i : nat, _ |- In _ l => eapply H; solve [coins_clear_all; coins_crush]\n"
        "  end."
    ),
    (
        "Ltac coins_count_cover l Hx :=\n"
        "  lazymatch type of Hx with\n"
        "  | False => contradiction\n"
        '  | _ \\/ _ => let Ht := fresh "Ht" in\n'
        "              destruct Hx as [Hx|Ht]; [ subst; coins_count_in l | coins_count_cover l Ht ]\n"
        "  end."
    ),
    (
        "Ltac coins_count_member l x Hx :=\n"
        "  match goal with\n"
        '  | H : forall i : nat, In i l -> _ |- _ => let Hp := fresh "Hp" in\n'
        "      pose proof (H x Hx) as Hp; clear - Hp; coins_crush\n"
        "  end."
    ),
    (
        "Ltac coins_count_refute l M :=\n"
        "  repeat match goal with H : _ /\\ _ |- _ => destruct H end;\n"
        '  let Hs := fresh "Hs" in let Hm := fresh "Hm" in let Hn := fresh "Hn" in\n'
        '  let x := fresh "x" in let Hx := fresh "Hx" in\n'
        "  match goal with\n"
        "  | Hnd : NoDup l |- _ =>\n"
        "      first [ assert (Hs : incl l M) by (intros x Hx; coins_count_member l x Hx);\n"
        "              pose proof (NoDup_incl_length Hnd Hs) as Hn; simpl in Hn; lia\n"
        "            | assert (Hs : incl M l) by (intros x Hx; simpl in Hx; coins_count_cover l Hx);\n"
        "              assert (Hm : NoDup M) by (coins_clear_all; coins_crush);\n"
        "              pose proof (NoDup_incl_length Hm Hs) as Hn; simpl in Hn; lia ]\n"
        "  end."
    ),
    (
        "Ltac coins_count :=\n"
        "  repeat intro;\n"
        "  lazymatch goal with\n"
        "  | |- @ex (list nat) ?F =>\n"
        "      let C := eval cbv beta in (F (@nil nat)) in\n"
        "      coins_count_witness C ltac:(fun M => exists M; coins_crush)\n"
        "  | H : @ex (list nat) ?F |- False =>\n"
        "      let C := eval cbv beta in (F (@nil nat)) in\n"
        '      let l := fresh "l" in let Hl := fresh "Hl" in\n'
        "      coins_count_witness C ltac:(fun M => destruct H as [l Hl]; coins_count_refute l M)\n"
        "  end."
    ),
)
"""The ``index-set`` rung's Ltac, sent with the prelude after the search it calls."""
