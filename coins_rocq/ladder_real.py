"""The Ltac of the ladder's ``real-integers`` rung: real distances quantified over the integers.

A spec over ``R`` that quantifies over ``Z`` (``forall z : Z, Rabs (r - IZR res) <= Rabs (r -
IZR z)``: ``res`` is a closest integer to ``r``) is out of ``lra``'s reach twice: it cannot
case-split ``Rabs``, and it does not know that no integer lies strictly between two
consecutive ones. The rung collects pivots, the integers around each real constant of the goal
(``floor (a / b) - 1`` to ``floor (a / b) + 1`` for ``IZR a / IZR b``, ``k - 1`` to ``k + 1``
for an ``IZR k`` outside a fraction, none added twice), sorted. A goal is proved by splitting each ``z`` at the
pivots in turn (``IZR z <= IZR (p - 1)``, ``z = p``, or ``IZR (p + 1) <= IZR z``, which
holds because ``z`` is an integer), then ``split_Rabs`` and ``lra`` on each case. A negated
goal is refuted by one instance at a pivot of a hypothesis ``forall z : Z, ...`` whose
premises (real equations, integer disequalities) are proved and whose conclusion
``split_Rabs`` and ``lra`` refute (``res = 16`` for ``r = 14.5``: at ``z = 15``, ``1.5 <=
0.5``). The tactics exist only where the signature uses ``R``; elsewhere ``coins_real_ints``
fails at once, and so it does on a goal with no ``forall`` over ``Z``.
"""

from __future__ import annotations

REAL_LTAC: tuple[str, ...] = (
    (
        "Definition coins_z_split (z a p b : Z) :"
        " a = (p - 1)%Z -> b = (p + 1)%Z -> (IZR z <= IZR a)%R \\/ z = p \\/ (IZR b <= IZR z)%R :="
        " ltac:(intros -> ->; destruct (Z.lt_trichotomy z p) as [H|[H|H]];"
        " [left; apply IZR_le; lia | right; left; exact H | right; right; apply IZR_le; lia])."
    ),
    (
        "Fixpoint coins_zinsert (x : Z) (l : list Z) : list Z :=\n"
        "  match l with nil => x :: nil | y :: t => if Z.leb x y then x :: l else y :: coins_zinsert x t end."
    ),
    "Ltac coins_r_close := try split_Rabs; first [ lra | lia | exfalso; lra ].",
    (
        "Ltac coins_r_split z l :=\n"
        "  lazymatch l with\n"
        "  | nil => idtac\n"
        "  | ?p :: ?t =>\n"
        "      let a := eval vm_compute in (p - 1)%Z in let b := eval vm_compute in (p + 1)%Z in\n"
        '      let Hz := fresh "Hz" in\n'
        "      destruct (coins_z_split z a p b eq_refl eq_refl) as [Hz|[Hz|Hz]];\n"
        "      [ idtac | subst z | coins_r_split z t ]\n"
        "  end."
    ),
    (
        "Ltac coins_r_refute Hp :=\n"
        "  lazymatch type of Hp with\n"
        "  | ?A -> _ =>\n"
        '      let HA := fresh "HA" in\n'
        "      assert (HA : A) by (repeat split; first [ discriminate | congruence | coins_r_close ]);\n"
        "      specialize (Hp HA); coins_r_refute Hp\n"
        "  | _ => clear - Hp; revert Hp; coins_r_close\n"
        "  end."
    ),
    (
        "Ltac coins_r_each Hf l :=\n"
        "  lazymatch l with\n"
        '  | ?p :: ?t => first [ let Hp := fresh "Hp" in pose proof (Hf p) as Hp; solve [coins_r_refute Hp]\n'
        "                      | coins_r_each Hf t ]\n"
        "  end."
    ),
    (
        "Ltac coins_r_with_pivots G tac :=\n"
        '  let acc := fresh "acc" in\n'
        "  pose (acc := @nil Z);\n"
        "  let add f := let l := eval cbv delta [acc] in acc in\n"
        "               lazymatch l with context [f] => fail | _ => idtac end;\n"
        "               let l' := eval vm_compute in"
        " (fold_right coins_zinsert nil (nodup Z.eq_dec ((f - 1) :: f :: (f + 1) :: l)))%Z in\n"
        "               clear acc; pose (acc := l') in\n"
        "  repeat (idtac; match G with\n"
        "                 | context [Rdiv (IZR ?a) (IZR ?b)] =>\n"
        "                     coins_numeral a; coins_numeral b; let f := eval vm_compute in (Z.div a b) in add f\n"
        "                 | context [IZR ?a] =>\n"
        "                     coins_numeral a;\n"
        "                     lazymatch G with\n"
        "                     | context [Rdiv (IZR a) _] => fail | context [Rdiv _ (IZR a)] => fail | _ => add a\n"
        "                     end\n"
        "                 end);\n"
        "  let l := eval cbv delta [acc] in acc in clear acc; tac l."
    ),
    (
        "Ltac coins_real_ints :=\n"
        "  lazymatch goal with |- context [forall z : Z, @?P z] => idtac end;\n"
        "  lazymatch goal with\n"
        "  | |- ~ ?G =>\n"
        "      coins_r_with_pivots G ltac:(fun l =>\n"
        "        intro; repeat match goal with H : _ /\\ _ |- _ => destruct H end;\n"
        "        match goal with Hf : forall z : Z, _ |- False => coins_r_each Hf l end)\n"
        "  | |- ?G =>\n"
        "      coins_r_with_pivots G ltac:(fun l =>\n"
        "        repeat split; intros; repeat match goal with H : _ /\\ _ |- _ => destruct H end;\n"
        "        try match goal with\n"
        "            | |- context [IZR ?z] => is_var z; coins_r_split z l\n"
        "            | _ : context [IZR ?z] |- _ => is_var z; coins_r_split z l\n"
        "            end;\n"
        "        first [ congruence | coins_r_close ])\n"
        "  end."
    ),
)
"""The rung's definitions and tactics, sent with the prelude of a signature that uses ``R``."""

NO_REAL_LTAC: tuple[str, ...] = ("Ltac coins_real_ints := fail.",)
"""The rung's tactic where the signature has no ``R``: it fails at once."""
