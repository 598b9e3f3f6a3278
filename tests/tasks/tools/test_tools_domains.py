"""Built-in domains: size, soundness of every task, wrong writes, and up-to-date task files."""

from __future__ import annotations

import pytest
from tools_helpers import candidate_writes, gold_call_dicts, judge, wrong_write

from tasks.tools.domains.build import generate, render
from tasks.tools.domains.registry import DOMAIN_NAMES, get_domain, task_file
from tasks.tools.framework.environment import Environment
from tasks.tools.framework.toolkit import ToolKind
from tasks.tools.solvability import judge_episode, run_scripted, run_sync


@pytest.mark.parametrize("name", DOMAIN_NAMES)
def test_domain_size_and_policy(name: str) -> None:
    domain = get_domain(name)
    assert len(domain.agent_toolkit.specs(ToolKind.READ, ToolKind.WRITE)) >= 10
    assert len(domain.tasks()) >= 25
    assert "policy" in domain.policy.lower()


@pytest.mark.slow
@pytest.mark.parametrize("name", DOMAIN_NAMES)
def test_every_task_gold_one_nothing_zero_wrong_zero(name: str) -> None:
    domain = get_domain(name)
    candidates = candidate_writes(domain)
    for task in domain.tasks():
        oracle = judge_episode(domain, task, run_sync(run_scripted(domain, task, "oracle")))
        assert oracle.reward == 1.0, (task.id, oracle.explanation)
        nothing = judge_episode(domain, task, run_sync(run_scripted(domain, task, "nothing")))
        assert nothing.reward == 0.0, (task.id, nothing.explanation)
        wrong = wrong_write(domain, task, candidates)
        assert wrong is not None, f"no wrong write found for {name} task {task.id}"
        verdict = judge(domain, task, [*gold_call_dicts(task), wrong])
        assert verdict.reward == 0.0 and verdict.components["DB"]["status"] == "failed", task.id


def test_telecom_needs_both_sides() -> None:
    domain = get_domain("telecom")
    task = next(
        t
        for t in domain.tasks()
        if any(a.requestor == "user" for a in t.gold_actions())
        and any(a.name in ("refuel_data", "resume_line", "set_line_roaming") for a in t.gold_actions())
    )
    agent_only = [c for c in gold_call_dicts(task) if c["side"] == "assistant"]
    verdict = judge(domain, task, agent_only)
    assert verdict.reward == 0.0
    assert verdict.components["ENV_ASSERTION"]["status"] == "failed"


@pytest.mark.parametrize("name", DOMAIN_NAMES)
def test_read_tools_never_change_state(name: str) -> None:
    domain = get_domain(name)
    for task in domain.tasks()[:5]:
        env = Environment(domain, task.initial_state)
        before = env.hashes()
        for action in task.gold_actions():
            kit = domain.toolkit(action.requestor)
            spec = kit.spec(action.name) if kit is not None else None
            assert spec is not None, action.name
            if spec.kind is ToolKind.READ:
                env.call(action.requestor, action.name, action.arguments)
        assert env.hashes() == before


@pytest.mark.parametrize("name", DOMAIN_NAMES)
def test_task_files_match_their_generator(name: str) -> None:
    assert task_file(name).read_text(encoding="utf-8") == render(generate(name))
