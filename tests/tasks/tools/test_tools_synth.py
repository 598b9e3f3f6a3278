"""Synthesis from declarative specs: tool tests, dependency graph, sound tasks, the CLI."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from tools_helpers import candidate_writes, gold_call_dicts, judge, wrong_write

from tasks.tools.cli import tools_group
from tasks.tools.solvability import check_task
from tasks.tools.synth.generate import synthesize
from tasks.tools.synth.spec import SpecError, compile_expression, load_spec, parse_spec
from tasks.tools.synth_task import SPEC_DIR, shipped_specs
from tasks.tools.taskformat import load_tasks


@pytest.fixture(scope="module", params=["library", "clinic"])
def synthesis(request):
    return synthesize(load_spec(SPEC_DIR / f"{request.param}.yaml"), seed=0)


def test_two_specs_ship() -> None:
    assert shipped_specs() == ["clinic", "library"]


def test_synthesized_tasks_are_sound(synthesis) -> None:
    domain = synthesis.domain
    assert len(synthesis.tasks) == 25 and not synthesis.report["tools_dropped"]
    assert any(synthesis.report["dependency_graph"].values())
    candidates = candidate_writes(domain)
    for task in synthesis.tasks:
        assert check_task(domain, task).ok
        wrong = wrong_write(domain, task, candidates)
        assert wrong is not None
        assert judge(domain, task, [*gold_call_dicts(task), wrong]).reward == 0.0


def test_synthesis_is_deterministic() -> None:
    spec = load_spec(SPEC_DIR / "library.yaml")
    assert synthesize(spec, seed=3, n_tasks=8).raw_tasks == synthesize(spec, seed=3, n_tasks=8).raw_tasks
    assert synthesize(spec, seed=3, n_tasks=8).raw_tasks != synthesize(spec, seed=4, n_tasks=8).raw_tasks


def _library() -> dict:
    return yaml.safe_load((SPEC_DIR / "library.yaml").read_text())


def test_faulty_tools_are_dropped_and_reported() -> None:
    data = _library()
    renew = next(t for t in data["tools"] if t["name"] == "renew_loan")
    renew["effects"] = {"book.renewals": "book.renewals + 5"}  # breaks its post-condition
    lend = next(t for t in data["tools"] if t["name"] == "lend_book")
    lend["pre"] = ["book.status == 'nowhere'"]  # can never run
    result = synthesize(parse_spec(data), seed=0, n_tasks=10)
    dropped = result.report["tools_dropped"]
    assert "post-condition violated" in dropped["renew_loan"][0]
    assert "never succeeded" in dropped["lend_book"][0]
    assert "renew_loan" not in result.domain.agent_toolkit.tool_names()
    assert all(a.name not in ("renew_loan", "lend_book") for t in result.tasks for a in t.gold_actions())
    assert result.tasks


@pytest.mark.parametrize(
    "mutate, fragment",
    [
        (lambda d: d["tools"][0].update(lookup={"entity": "member", "field": "name"}), "unique field"),
        (lambda d: d["tools"][4].update(pre=["__import__('os')"]), "Call"),
        (lambda d: d["tools"][4]["params"]["member_id"].update(ref="ghost"), "unknown entity"),
        (lambda d: d["tools"][4].pop("instruction"), "instruction"),
        (lambda d: d.update(name="Bad Name"), "name"),
    ],
)
def test_bad_specs_fail_clearly(mutate, fragment: str) -> None:
    data = _library()
    mutate(data)
    with pytest.raises(SpecError, match=fragment):
        parse_spec(data)


def test_expression_language_is_closed() -> None:
    for bad in ("a.__class__()", "[x for x in y]", "lambda: 1", "a[0]"):
        with pytest.raises(SpecError):
            compile_expression(bad)


def test_cli_synthesize(tmp_path: Path) -> None:
    out = tmp_path / "lib"
    result = CliRunner().invoke(
        tools_group, ["synthesize", str(SPEC_DIR / "library.yaml"), "--seed", "1", "--tasks", "6", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "tasks: 6" in result.output
    assert len(load_tasks(out / "tasks.json")) == 6
    report = json.loads((out / "report.json").read_text())
    assert report["seed"] == 1 and report["tools_kept"]
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: [unclosed")
    failed = CliRunner().invoke(tools_group, ["synthesize", str(bad), "-o", str(tmp_path / "x")])
    assert failed.exit_code != 0 and "not valid YAML" in failed.output
