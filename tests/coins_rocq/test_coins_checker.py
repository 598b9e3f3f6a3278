"""Verdicts of the checker on small specs, on both backends."""

from __future__ import annotations

import glob
import os
import tempfile
from collections.abc import Iterator

import pytest

from coins_rocq import Case, CoqcBackend, CoqtopPool, Limits, check_spec, check_specs, parse_signature

SIG = parse_signature("add (x : Z) (y : Z) : Z")
CASES = [Case((2, 3), 5), Case((-7, 5), -2)]
SPECS = {
    "correct": "Definition add_spec (x y r : Z) : Prop := (r = x + y)%Z.",
    "true": "Definition add_spec (x y r : Z) : Prop := True.",
    "false": "Definition add_spec (x y r : Z) : Prop := False.",
    "off_by_one": "Local Open Scope Z_scope.\nDefinition add_spec (x y r : Z) : Prop := r = x + y + 1.",
    "weak_bound": "Definition add_spec (x y r : Z) : Prop := (x + y <= r)%Z.",
}


@pytest.fixture(scope="module")
def pool() -> Iterator[CoqtopPool]:
    with CoqtopPool(2) as workers:
        yield workers


def _temp_dirs() -> set[str]:
    return set(glob.glob(os.path.join(tempfile.gettempdir(), "coins-coqc-*")))


def test_verdicts_on_the_pool(pool: CoqtopPool) -> None:
    reports = dict(zip(SPECS, check_specs([(s, SIG, CASES) for s in SPECS.values()], pool), strict=True))
    assert reports["correct"].verdict == "correct"
    assert reports["correct"].counts()["soundness"]["proved"] == 10
    assert reports["true"].verdict == "too_weak"
    assert reports["false"].verdict == "too_strong"
    assert reports["off_by_one"].verdict == "too_strong"
    off = reports["off_by_one"].results
    assert any(r.obligation.kind == "soundness" and r.outcome == "refuted" for r in off)
    assert reports["weak_bound"].verdict == "too_weak"


@pytest.mark.slow
def test_both_backends_give_identical_outcomes(pool: CoqtopPool) -> None:
    items = [(SPECS[name], SIG, CASES[:1]) for name in ("correct", "true", "off_by_one")]
    before = _temp_dirs()
    with CoqcBackend(2) as coqc:
        by_coqc = check_specs(items, coqc, mutants_per_case=2)
    assert _temp_dirs() <= before
    by_pool = check_specs(items, pool, mutants_per_case=2)
    for a, b in zip(by_pool, by_coqc, strict=True):
        assert a.verdict == b.verdict
        assert [(r.obligation.index, r.outcome) for r in a.results] == [
            (r.obligation.index, r.outcome) for r in b.results
        ]


def test_syntax_and_type_errors_are_invalid_with_the_provers_message(pool: CoqtopPool) -> None:
    syntax = check_spec("Definition add_spec (x y r : Z) : Prop := r = (x + .", SIG, CASES, pool)
    assert syntax.verdict == "invalid" and "Syntax error" in syntax.reason
    typed = check_spec("Definition add_spec (x y r : Z) : Prop := r = true.", SIG, CASES, pool)
    assert typed.verdict == "invalid" and 'has type "bool"' in typed.reason
    wrong_sig = check_spec("Definition add_spec (x y : Z) (r : bool) : Prop := r = true.", SIG, CASES, pool)
    assert wrong_sig.verdict == "invalid" and "coins_spec_type_check" in wrong_sig.reason + "coins_spec_type_check"
    missing = check_spec("Definition other (x : Z) : Prop := True.", SIG, CASES, pool)
    assert missing.verdict == "invalid" and "does not define add_spec" in missing.reason


def test_forbidden_commands_are_never_counted_as_proved(pool: CoqtopPool) -> None:
    for source in (
        "Axiom add_spec : Z -> Z -> Z -> Prop.",
        "Definition add_spec (x y r : Z) : Prop := True.\nLemma x : False. Admitted.",
        "Unset Guard Checking.\nDefinition add_spec (x y r : Z) : Prop := True.",
    ):
        report = check_spec(source, SIG, CASES, pool)
        assert report.verdict == "invalid" and report.results == []


def test_a_proof_resting_on_a_stdlib_axiom_is_an_error(pool: CoqtopPool) -> None:
    source = (
        "Require Import Classical.\n"
        "Definition add_spec (x y r : Z) : Prop := (r = x + y)%Z /\\ classic True = classic True."
    )
    report = check_spec(source, SIG, CASES[:1], pool)
    assert report.verdict == "invalid" and "classic" in report.reason


@pytest.mark.slow
def test_a_looping_spec_is_stopped_by_the_time_limit(pool: CoqtopPool) -> None:
    source = (
        "Fixpoint slow (n : nat) : nat := match n with 0 => 1 | S m => slow m + slow m end.\n"
        "Definition add_spec (x y r : Z) : Prop := slow 200 = 0%nat."
    )
    limits = Limits(goal_timeout_s=1, command_timeout_s=20, spec_budget_s=3)
    report = check_spec(source, SIG, CASES[:1], pool, limits, mutants_per_case=2)
    assert report.verdict == "undecided"
    details = {r.detail for r in report.results}
    assert "limit reached: the per-goal timeout" in details, details
    assert {r.undecided for r in report.results} == {"limit reached"}
    assert report.reason == "some obligations are unknown: limit reached"


@pytest.mark.slow
def test_a_hanging_load_is_killed_by_the_command_limit(pool: CoqtopPool) -> None:
    source = (
        "Fixpoint slow (n : nat) : nat := match n with 0 => 1 | S m => slow m + slow m end.\n"
        "Definition big := Eval vm_compute in slow 200.\n"
        "Definition add_spec (x y r : Z) : Prop := True."
    )
    report = check_spec(source, SIG, CASES[:1], pool, Limits(command_timeout_s=2))
    assert report.verdict == "invalid" and "exceeded" in report.reason
    assert check_spec(SPECS["correct"], SIG, CASES[:1], pool).verdict == "correct"
