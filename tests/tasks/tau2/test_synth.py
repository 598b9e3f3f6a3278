"""Synthesis from declarative specs: tool tests, dependency graph, tasks sound under τ²'s runtime, the CLI."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

import pytest
import yaml
from click.testing import CliRunner

from harness.errors import ConfigError
from tasks.tau2.parity import scripted_episode, tau2_registry_over, tau2_reward
from tasks.tau2.rewards import Evaluator
from tasks.tau2.scripted import gold_actions
from tasks.tau2.synth.cli import tools_group
from tasks.tau2.synth.generate import Synthesis, synthesize
from tasks.tau2.synth.shipped import SPEC_DIR, spec_path
from tasks.tau2.synth.spec import load_spec, parse_spec
from tasks.tau2.synthesized import read_synthesized

if TYPE_CHECKING:
    from tau2.data_model.tasks import Action
    from tau2.data_model.tasks import Task as Tau2Task


@pytest.fixture(scope="module", params=["library", "clinic"])
def synthesis(request: pytest.FixtureRequest) -> Synthesis:
    return synthesize(load_spec(spec_path(request.param)), seed=0)


async def test_synthesized_tasks_are_sound_as_tau2_itself_scores_them(synthesis: Synthesis) -> None:
    """Gold scores 1; idle, gold minus its last write and gold plus another task's write that changes the state
    score 0, by this project's evaluator and by τ²'s own ``evaluate_simulation``, which agree on every plan."""
    domain, report = synthesis.domain, synthesis.report
    tasks = domain.tasks("base")
    assert len(tasks) == 25 and not report["tools_dropped"] and any(report["dependency_graph"].values())
    evaluator = Evaluator(domain)
    writes = [a for t in tasks for a in gold_actions(t) if getattr(domain.tools_class, a.name).__tool_type__ == "write"]

    async def reward(task: Tau2Task, actions: list[Action], idle: bool = False) -> float:
        episode = await scripted_episode(domain, task, actions, idle=idle)
        ours = evaluator.evaluate(task, episode.trajectory, episode.termination).reward
        assert ours == tau2_reward(domain.name, task, episode.trajectory, episode.termination), (task.id, actions)
        return ours

    with tau2_registry_over(domain):
        for task in tasks:
            gold = gold_actions(task)
            assert await reward(task, gold) == 1.0 and await reward(task, [], idle=True) == 0.0
            last_write = max(i for i, a in enumerate(gold) if a in writes)
            assert await reward(task, gold[:last_write] + gold[last_write + 1 :]) == 0.0, task.id
            for extra in (write for write in writes if write not in gold):
                if await reward(task, [*gold, extra]) == 0.0:
                    break
            else:
                pytest.fail(f"task {task.id}: no other task's write changes its gold end state")


def test_synthesis_is_deterministic() -> None:
    spec = load_spec(spec_path("library"))

    def dumped(seed: int) -> list[dict]:
        return [t.model_dump(mode="json") for t in synthesize(spec, seed=seed, n_tasks=8).domain.tasks(None)]

    assert dumped(3) == dumped(3) and dumped(3) != dumped(4)


def test_faulty_tools_are_dropped_and_reported() -> None:
    data = yaml.safe_load((SPEC_DIR / "library.yaml").read_text())
    renew = next(t for t in data["tools"] if t["name"] == "renew_loan")
    renew["effects"] = {"book.renewals": "book.renewals + 5"}  # breaks its post-condition
    lend = next(t for t in data["tools"] if t["name"] == "lend_book")
    lend["pre"] = ["book.status == 'nowhere'"]  # can never run
    result = synthesize(parse_spec(data), seed=0, n_tasks=10)
    dropped = result.report["tools_dropped"]
    assert "post-condition violated" in dropped["renew_loan"][0]
    assert "never succeeded" in dropped["lend_book"][0]
    assert "renew_loan" not in result.domain.kept and "renew_loan" not in result.domain.environment().tools.tools
    tasks = result.domain.tasks(None)
    assert tasks and all(a.name not in ("renew_loan", "lend_book") for t in tasks for a in gold_actions(t))


def test_cli_synthesize_writes_a_tau2_domain_that_reads_back(tmp_path: Path) -> None:
    out = tmp_path / "lib"
    result = CliRunner().invoke(
        tools_group, ["synthesize", str(SPEC_DIR / "library.yaml"), "--seed", "1", "--tasks", "6", "-o", str(out)]
    )
    assert result.exit_code == 0, result.output
    assert "tasks: 6" in result.output and "run it as --task tau2-synth/" in result.output
    folder = out / "domains" / "synth-library"
    domain = read_synthesized(folder)
    assert len(domain.tasks("base")) == 6 and domain.splits() == json.loads((folder / "split_tasks.json").read_text())
    report = json.loads((folder / "report.json").read_text())
    assert report["seed"] == 1 and report["tools_kept"] == domain.kept
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: [unclosed")
    failed = CliRunner().invoke(tools_group, ["synthesize", str(bad), "-o", str(tmp_path / "x")])
    assert failed.exit_code != 0 and "not valid YAML" in failed.output and "Traceback" not in failed.output


@pytest.mark.parametrize("name", ["db", "get_tools", "use_tool"])
def test_a_tool_named_like_tau2s_toolkit_itself_is_refused(name: str) -> None:
    data = yaml.safe_load((SPEC_DIR / "library.yaml").read_text())
    next(t for t in data["tools"] if t["name"] == "get_member")["name"] = name
    with pytest.raises(ConfigError, match=f"synthesized tools {name}: names that τ²'s toolkit uses itself"):
        synthesize(parse_spec(data), seed=0, n_tasks=2)
