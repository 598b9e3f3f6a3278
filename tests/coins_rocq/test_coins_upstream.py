"""The upstream human-spec format (``Spec``/``Pre``, unit-test Examples), read natively.

Synthetic files are written here; the real upstream files are read from the reference
data (``coins-human`` in the ``shared_data`` folder) and the tests that need them skip when it is absent.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from coins_rocq import Case, CoqtopPool, check_spec
from coins_rocq.backends.base import JobResult, ObligationResult, Outcome
from coins_rocq.checker import verdict_of
from coins_rocq.cli import coins_group
from coins_rocq.humaneval import RECORDED, case_source, humaneval_cases
from coins_rocq.obligations import Kind, Obligation
from coins_rocq.rtypes import parse_type
from coins_rocq.upstream import UpstreamFormatError, upstream_signature

ADD = """(* Add two numbers x and y
>>> add(2, 3)
5 *)
Require Import Coq.ZArith.ZArith.
Open Scope Z_scope.
Definition Pre (x y : Z) : Prop := True.
Definition Spec (x y output : Z) : Prop := output = x + y.
Example add_example : Spec 2 3 5.
Proof. unfold Spec. reflexivity. Qed.
"""


def _check(tmp_path: Path, source: str, problem: str, *extra: str) -> tuple[int, str]:
    spec = tmp_path / "spec.v"
    spec.write_text(source, encoding="utf-8")
    result = CliRunner().invoke(coins_group, ["check", str(spec), "--problem", problem, *extra])
    return result.exit_code, result.output


def test_the_signature_comes_from_the_files_own_spec() -> None:
    sig = upstream_signature(
        "Definition Grid := list (list nat).\n"
        "Definition problem_129_pre (g : Grid) (k : nat) : Prop := True.\n"
        "Definition problem_129_spec (g : Grid) (k : nat) (out : list Coq.Init.Datatypes.nat) : Prop "
        ":= True.",
        "minPath",
        2,
        129,
    )
    assert (sig.spec_name, sig.pre_name) == ("problem_129_spec", "problem_129_pre")
    assert [p.rtype for p in sig.params] == [parse_type("list (list nat)"), parse_type("nat")]
    assert sig.output == parse_type("list nat")
    assert (
        upstream_signature("Definition Spec' (s : list ascii) (b : bool) : Prop := True.", "f", 1).spec_name == "Spec'"
    )
    with pytest.raises(UpstreamFormatError, match="no test case's values fit"):
        upstream_signature("Definition Spec (x y out : Z) : Prop := True.", "f", 1, cases=[Case((1,), 2)])
    with pytest.raises(UpstreamFormatError, match="not one the checker can render"):
        upstream_signature("Definition Spec (f : Z -> Z) (out : Z) : Prop := True.", "f", 1)


def test_an_upstream_file_with_a_checked_example_is_judged_correct(tmp_path: Path) -> None:
    code, output = _check(tmp_path, ADD, "HumanEval/53")
    assert code == 0, output
    assert "spec Spec" in output and "verdict: correct" in output


def test_a_failing_or_admitted_example_makes_the_spec_invalid(tmp_path: Path) -> None:
    failing = ADD.replace("Spec 2 3 5.", "Spec 2 3 6.")
    code, output = _check(tmp_path, failing, "HumanEval/53")
    assert code == 1 and "verdict: invalid" in output
    admitted = ADD.replace("Proof. unfold Spec. reflexivity. Qed.", "Admitted.")
    code, output = _check(tmp_path, admitted, "HumanEval/53")
    assert code == 1 and "verdict: invalid" in output and "Admitted" in output


def test_a_negative_input_for_nat_skips_that_case_only() -> None:
    spec = "Definition Spec (x : nat) (y output : Z) : Prop := (output = Z.of_nat x + y)%Z."
    sig = upstream_signature(spec, "add", 2)
    with CoqtopPool(1) as pool:
        report = check_spec(spec, sig, [Case((-1, 2), 1), Case((1, 2), 3), Case((1.5, 2), 3)], pool)
    assert report.verdict == "correct"
    assert [(s.index, s.precondition) for s in report.skipped] == [(0, True), (2, False)]
    assert "negative int -1 for nat" in report.skipped[0].why


def test_a_case_the_precondition_excludes_is_skipped_and_a_precondition_excluding_all_is_never_correct() -> None:
    body = "Definition Spec (x y output : Z) : Prop := output = (x + y)%Z."
    positive = f"Definition Pre (x y : Z) : Prop := (x > 0)%Z.\n{body}"
    never = f"Definition Pre (x y : Z) : Prop := False.\n{body}"
    cases = [Case((-1, 2), 1), Case((1, 2), 3), Case((4, 5), 9)]
    with CoqtopPool(1) as pool:
        reports = [check_spec(src, upstream_signature(src, "add", 2), cases, pool) for src in (positive, never)]
    within, excluded_all = reports
    assert within.verdict == "correct"
    assert [(s.index, s.precondition) for s in within.skipped] == [(0, True)]
    assert "precondition excludes this input" in within.skipped[0].why
    assert {r.obligation.case for r in within.results} == {1, 2}
    assert within.counts()["precondition"]["proved"] == 2
    assert excluded_all.verdict == "undecided" and "excludes every test case" in excluded_all.reason
    assert [s.index for s in excluded_all.skipped] == [0, 1, 2]


def test_a_wrong_spec_under_a_true_precondition_is_still_judged() -> None:
    src = "Definition Pre (x y : Z) : Prop := True.\nDefinition Spec (x y output : Z) : Prop := output = (x * y)%Z."
    with CoqtopPool(1) as pool:
        report = check_spec(src, upstream_signature(src, "add", 2), [Case((1, 2), 3), Case((4, 5), 9)], pool)
    assert report.verdict == "too_strong" and not report.skipped


def _results(*outcomes: tuple[Kind, int, Outcome]) -> JobResult:
    return JobResult(
        None,
        [
            ObligationResult(Obligation(i, kind, case, "g", "~ g", kind), out)
            for i, (kind, case, out) in enumerate(outcomes)
        ],
    )


def test_a_refutation_decides_only_where_its_cases_precondition_is_proved() -> None:
    refuted_under_unknown_pre = _results(("precondition", 0, "unknown"), ("completeness", 0, "refuted"))
    assert verdict_of(refuted_under_unknown_pre).verdict == "undecided"
    accepted_under_unknown_pre = _results(("precondition", 0, "unknown"), ("soundness", 0, "refuted"))
    assert verdict_of(accepted_under_unknown_pre).verdict == "undecided"
    refuted_under_proved_pre = _results(
        ("precondition", 0, "unknown"),
        ("completeness", 0, "refuted"),
        ("precondition", 1, "proved"),
        ("completeness", 1, "refuted"),
    )
    assert verdict_of(refuted_under_proved_pre).verdict == "too_strong"
    assert verdict_of(_results(("completeness", 0, "refuted"))).verdict == "too_strong"
    excluded = _results(("precondition", 0, "refuted"), ("completeness", 0, "refuted"), ("completeness", 1, "proved"))
    assert verdict_of(excluded).verdict == "correct"


def test_problems_without_literal_calls_get_recorded_cases() -> None:
    for task_id in ("HumanEval/32", "HumanEval/38", "HumanEval/50"):
        assert case_source(task_id) == RECORDED
        assert len(humaneval_cases(task_id)) >= 5


@pytest.mark.parametrize("number", [42, 60, 66])
def test_real_upstream_specs_are_judged_correct_as_they_are(tmp_path: Path, shared_data: Path, number: int) -> None:
    spec = shared_data / "coins-human" / f"{number}.v"
    code, output = _check(tmp_path, spec.read_text(encoding="utf-8"), f"HumanEval/{number}", "--max-cases", "3")
    assert code == 0, output
