"""The Ltac of the ladder's ``sorted-permutation`` rung: a sorted rearrangement, built and pinned.

A sorting spec such as HumanEval/105's ``exists s, (Permutation l s /\\ Sorted Z.le s) /\\
o = map word (rev s)`` has, as its witness, the sorted input: no unification finds it, and
the search knows no ``Permutation``. ``coins_sorted`` reads the permuted list ``L`` and the
order ``R`` off the existential's body (read at ``s := nil``, where the bound variable cannot
escape), computes ``L``, sorts it by insertion (``R a b`` decided on literals by ``lia`` or
the search), and proves the body at the result: each ``Permutation`` between literal lists
by moving each element of the left list to the front of the right one
(``Permutation_cons_app``), the rest by the search.

A refutation (a wrong ``o``) pins the rearrangement: for an antisymmetric, transitive
``R`` there is one sorted permutation of ``L`` (``coins_sorted_unique``, proved in the
prelude from the standard library's ``Sorted_StronglySorted``), so the assumed ``s`` is the
sorted list and the search refutes the rest at it. A relation that is not antisymmetric
(sorting by a key), not transitive or not decidable on the literals makes the rung fail,
never a wrong verdict; the kernel checks every proof anyway.
"""

from __future__ import annotations

_PERM = "Coq.Sorting.Permutation"

SORTED_LTAC: tuple[str, ...] = (
    (
        "Definition coins_sorted_unique : forall (A : Type) (R : A -> A -> Prop),\n"
        "  (forall x y, R x y -> R y x -> x = y) -> (forall x y z, R x y -> R y z -> R x z) ->\n"
        f"  forall l1 l2 : list A, Sorted R l1 -> Sorted R l2 -> {_PERM}.Permutation l1 l2 -> l1 = l2 :=\n"
        "  ltac:(intros A R anti trans l1; induction l1 as [|a l1 IH]; intros l2 S1 S2 P;\n"
        f"    [ symmetry; exact ({_PERM}.Permutation_nil P)\n"
        "    | destruct l2 as [|b l2];\n"
        f"      [ pose proof ({_PERM}.Permutation_nil ({_PERM}.Permutation_sym P)) as E; discriminate E\n"
        "      | pose proof (@Sorted_StronglySorted A R trans _ S1) as T1;\n"
        "        pose proof (@Sorted_StronglySorted A R trans _ S2) as T2;\n"
        "        inversion T1 as [|? ? U1 F1]; inversion T2 as [|? ? U2 F2]; subst;\n"
        f"        pose proof ({_PERM}.Permutation_in _ P (or_introl eq_refl)) as Ha;\n"
        f"        pose proof ({_PERM}.Permutation_in _ ({_PERM}.Permutation_sym P) (or_introl eq_refl)) as Hb;\n"
        "        assert (E : a = b) by (destruct Ha as [Ha|Ha]; [symmetry; exact Ha|];\n"
        "          destruct Hb as [Hb|Hb]; [exact Hb|];\n"
        "          apply anti; [ exact (proj1 (Forall_forall _ _) F1 b Hb)\n"
        "                      | exact (proj1 (Forall_forall _ _) F2 a Ha) ]);\n"
        "        subst b; f_equal; apply IH;\n"
        "        [ exact (StronglySorted_Sorted U1) | exact (StronglySorted_Sorted U2)\n"
        f"        | exact ({_PERM}.Permutation_cons_inv P) ] ] ])."
    ),
    (
        "Ltac coins_perm_split a s A tac :=\n"
        "  lazymatch s with\n"
        "  | a :: ?t => tac (@nil A) t\n"
        "  | ?b :: ?t => coins_perm_split a t A ltac:(fun s1 s2 => tac (b :: s1) s2)\n"
        "  end."
    ),
    (
        "Ltac coins_perm :=\n"
        "  lazymatch goal with\n"
        f"  | |- {_PERM}.Permutation nil nil => apply {_PERM}.perm_nil\n"
        f"  | |- @{_PERM}.Permutation ?A (?a :: ?t) ?s =>\n"
        "      coins_perm_split a s A ltac:(fun s1 s2 =>\n"
        f"        change s with (s1 ++ a :: s2); apply {_PERM}.Permutation_cons_app; simpl; coins_perm)\n"
        "  end."
    ),
    "Ltac coins_order_prove := cbv beta in *; first [lia | coins_crush].",
    "Ltac coins_order_holds R a b := assert_succeeds (assert (R a b) by (coins_clear_all; coins_order_prove)).",
    (
        "Ltac coins_insert R a s tac :=\n"
        "  lazymatch s with\n"
        "  | nil => tac (a :: s)\n"
        "  | ?b :: ?t =>\n"
        "      tryif coins_order_holds R a b then tac (a :: s)\n"
        "      else coins_insert R a t ltac:(fun r => tac (b :: r))\n"
        "  end."
    ),
    (
        "Ltac coins_sort R l tac :=\n"
        "  lazymatch l with\n"
        "  | nil => tac l\n"
        "  | ?a :: ?t => coins_sort R t ltac:(fun s => coins_insert R a s tac)\n"
        "  end."
    ),
    (
        "Ltac coins_sorted_parts C tac :=\n"
        "  let R := lazymatch C with context [Sorted ?R nil] => R end in\n"
        "  lazymatch C with\n"
        f"  | context [{_PERM}.Permutation ?L nil] => tac L R\n"
        f"  | context [{_PERM}.Permutation nil ?L] => tac L R\n"
        "  end."
    ),
    (
        "Ltac coins_sorted_body :=\n"
        "  repeat match goal with |- _ /\\ _ => split end;\n"
        f"  first [ lazymatch goal with |- {_PERM}.Permutation _ _ => vm_compute; coins_perm end | coins_crush ]."
    ),
    (
        "Ltac coins_sorted_refute A R L S s :=\n"
        "  repeat match goal with H : _ /\\ _ |- _ => destruct H end;\n"
        '  let E := fresh "E" in let HL := fresh "HL" in\n'
        f"  assert (HL : {_PERM}.Permutation L S) by coins_perm;\n"
        "  match goal with\n"
        "  | Hs : Sorted R s |- _ =>\n"
        "      assert (E : S = s) by (\n"
        "        apply (coins_sorted_unique A R);\n"
        "        [ intros; coins_order_prove | intros; coins_order_prove\n"
        "        | coins_clear_all; coins_crush | exact Hs\n"
        f"        | eapply {_PERM}.perm_trans; [ exact ({_PERM}.Permutation_sym HL) |\n"
        f"          first [ assumption | apply {_PERM}.Permutation_sym; assumption ] ] ]);\n"
        f"      subst s; clear Hs HL; repeat match goal with H : {_PERM}.Permutation _ _ |- _ => clear H end;\n"
        "      coins_crush\n"
        "  end."
    ),
    (
        "Ltac coins_sorted :=\n"
        "  repeat intro; cbv zeta in *;\n"
        "  lazymatch goal with\n"
        "  | |- @ex (list ?A) ?F =>\n"
        "      let C := eval cbv beta in (F (@nil A)) in\n"
        "      coins_sorted_parts C ltac:(fun L R => let L' := eval vm_compute in L in\n"
        "        coins_sort R L' ltac:(fun S => exists S; coins_sorted_body))\n"
        "  | H : @ex (list ?A) ?F |- False =>\n"
        "      let C := eval cbv beta in (F (@nil A)) in\n"
        '      let s := fresh "s" in let Hs := fresh "Hs" in\n'
        "      coins_sorted_parts C ltac:(fun L R => let L' := eval vm_compute in L in\n"
        "        coins_sort R L' ltac:(fun S => destruct H as [s Hs]; coins_sorted_refute A R L' S s))\n"
        "  end."
    ),
)
"""The ``sorted-permutation`` rung's Ltac and its uniqueness lemma, sent with the prelude after the search."""
