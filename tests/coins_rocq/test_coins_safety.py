"""The screen of untrusted specs, and the Print Assumptions audit."""

from __future__ import annotations

import pytest

from coins_rocq.backends.base import check_assumptions
from coins_rocq.safety import UnsafeSpec, screen

GOOD = "Definition add_spec (x y r : Z) : Prop := (r = x + y)%Z."

FORBIDDEN = {
    "Axiom": "Axiom add_spec : Z -> Z -> Z -> Prop.",
    "Parameter": "Parameter p : Z.\n" + GOOD,
    "Admitted": "Definition add_spec (x y r : Z) : Prop := True.\nLemma l : False. Admitted.",
    "admit": "Definition add_spec (x y r : Z) : Prop := ltac:(admit).",
    "Redirect": 'Redirect "out" Print nat.\n' + GOOD,
    "Load": 'Load "evil".\n' + GOOD,
    "Cd": 'Cd "/tmp".\n' + GOOD,
    "Drop": "Drop.\n" + GOOD,
    "Declare": 'Declare ML Module "evil".\n' + GOOD,
    "Extraction": 'Extraction "x.ml" nat.\n' + GOOD,
    "Unset": "Unset Guard Checking.\n" + GOOD,
    "#[": "#[bypass_check(guard)] Fixpoint f (n : nat) : nat := f n.\n" + GOOD,
    "Reset": "Reset Initial.\n" + GOOD,
    "End": "End CoinsSpec.\n" + GOOD,
    "Lemma": GOOD + "\nLemma l : True. Proof. exact I. Qed.",
    "Ltac": "Ltac t := idtac.\n" + GOOD,
}


def test_a_plain_spec_passes_and_names_its_definitions() -> None:
    screened = screen("(* comment with a . dot *)\nRequire Import ZArith.\nLocal Open Scope Z_scope.\n" + GOOD)
    assert screened.defined == ("add_spec",)
    assert screened.sentences[-1] == GOOD


@pytest.mark.parametrize("word", sorted(FORBIDDEN))
def test_each_forbidden_command_is_rejected_with_a_named_reason(word: str) -> None:
    with pytest.raises(UnsafeSpec) as info:
        screen(FORBIDDEN[word])
    assert word.strip("#[") in info.value.reason or word in info.value.reason


@pytest.mark.parametrize(
    "source, reason",
    [
        ("Require Import Foo.Bar.\n" + GOOD, "neither in the standard library nor in a trusted library"),
        ("From Mathcomp Require Import ssreflect.\n" + GOOD, "From Coq Require"),
        ("Definition add_spec (x y r : Z) : Prop := (* open", "comment is not closed"),
        ('Definition s := "open', "string literal is not closed"),
        ("Definition add_spec (x y r : Z) : Prop := True", "does not end with '.'"),
        ("Definition add_spec (x y r : Z) : Prop.", "would open a proof"),
        ('Definition s := "</prompt>".\n' + GOOD, "prompt marker"),
        ("", "empty"),
        ("x" * 60_000, "longer than"),
    ],
)
def test_malformed_or_escaping_specs_are_rejected(source: str, reason: str) -> None:
    with pytest.raises(UnsafeSpec) as info:
        screen(source)
    assert reason in str(info.value)


def test_print_assumptions_allow_list() -> None:
    assert check_assumptions("Closed under the global context\n").status == "proved"
    reals = "Axioms:\nClassicalDedekindReals.sig_forall_dec\n  : forall P : nat -> Prop, ...\n"
    assert check_assumptions(reals).status == "proved"
    bad = check_assumptions("Axioms:\nClassical_Prop.classic : forall P : Prop, P \\/ ~ P\n")
    assert bad.status == "axioms" and "Classical_Prop.classic" in bad.message
    assert check_assumptions("something else").status == "axioms"
