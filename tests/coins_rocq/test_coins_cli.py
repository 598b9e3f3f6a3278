"""``frontier coins check`` through click's runner."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from coins_rocq.cli import coins_group


def test_check_with_cases_file_prints_a_table_and_json(tmp_path: Path) -> None:
    spec = tmp_path / "add.v"
    spec.write_text("Definition add_spec (x y r : Z) : Prop := (r = x + y)%Z.\n")
    cases = tmp_path / "cases.json"
    cases.write_text(json.dumps([{"inputs": [2, 3], "output": 5}]))
    runner = CliRunner()
    args = ["check", str(spec), "--cases", str(cases), "--signature", "add (x : Z) (y : Z) : Z"]
    result = runner.invoke(coins_group, args)
    assert result.exit_code == 0, result.output
    assert "verdict: correct" in result.output and "completeness" in result.output
    as_json = runner.invoke(coins_group, [*args, "--json"])
    report = json.loads(as_json.output)
    assert report["verdict"] == "correct" and report["counts"]["soundness"]["proved"] == 5


def test_check_against_a_curated_problem_reports_a_wrong_spec(tmp_path: Path) -> None:
    spec = tmp_path / "strlen.v"
    spec.write_text("Definition strlen_spec (s : string) (r : Z) : Prop := True.\n")
    result = CliRunner().invoke(coins_group, ["check", str(spec), "--problem", "HumanEval/23", "--max-cases", "1"])
    assert result.exit_code == 1 and "verdict: too_weak" in result.output


def test_bad_usage_is_reported(tmp_path: Path) -> None:
    spec = tmp_path / "x.v"
    spec.write_text("Definition x := 1.\n")
    runner = CliRunner()
    assert "exactly one of" in runner.invoke(coins_group, ["check", str(spec)]).output
    bad = tmp_path / "bad.json"
    bad.write_text("{nope")
    out = runner.invoke(coins_group, ["check", str(spec), "--cases", str(bad), "--signature", "f (x : Z) : Z"]).output
    assert "not valid JSON" in out
    out = runner.invoke(coins_group, ["check", str(spec), "--problem", "HumanEval/1"]).output
    assert "no curated signature" in out or "does not define separate_paren_groups_spec" in out, out
