"""Parity with τ²: the same trajectories scored by τ²'s ``evaluate_simulation`` and by this project.

Trajectories come from real episodes (this project's loop, τ²'s environments) with scripted
agents playing variants of each task's gold actions. Each database is loaded once: τ²'s
evaluator is pointed at this project's environment constructor, whose environments are
first checked to hash exactly as τ²'s own ``get_environment`` builds them.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import TYPE_CHECKING

import pytest

from tasks.tau2.domains import load_domain
from tasks.tau2.library import resolve_data_root
from tasks.tau2.parity import harmful_write, scripted_episode, tau2_registry_over, tau2_reward, variants
from tasks.tau2.rewards import Evaluator

if TYPE_CHECKING:
    from tau2.data_model.tasks import Task as Tau2Task

TASKS_PER_DOMAIN = {"airline": 2, "retail": 6, "telecom": 6}


def _domain(name: str):
    return load_domain(name, resolve_data_root(None))


@pytest.mark.parametrize("name", ["airline", "retail", "telecom", "mock"])
def test_environments_hash_as_tau2_builds_them(name: str) -> None:
    from tau2.registry import registry

    domain = _domain(name)
    ours, theirs = domain.environment(), registry.get_env_constructor(name)()
    assert (ours.get_db_hash(), ours.get_user_db_hash()) == (theirs.get_db_hash(), theirs.get_user_db_hash())
    assert ours.policy == theirs.policy
    assert [t.openai_schema for t in ours.get_tools()] == [t.openai_schema for t in theirs.get_tools()]


def _cases(name: str) -> list[tuple[str, Tau2Task, str, list]]:
    """(variant, task, termination, trajectory) for the domain's first tasks with gold actions, and one without."""
    domain = _domain(name)
    tasks = domain.tasks("base")
    chosen = [t for t in tasks if t.evaluation_criteria and t.evaluation_criteria.actions][: TASKS_PER_DOMAIN[name]]
    vacuous = next((t for t in tasks if t.evaluation_criteria and not t.evaluation_criteria.actions), None)
    chosen += [vacuous] if vacuous is not None else []
    cases = []
    for task in chosen:
        for variant, plan in variants(domain, task, harmful_write(domain, tasks, task)).items():
            episode = asyncio.run(scripted_episode(domain, task, plan, idle=variant == "idle"))
            cases.append((variant, task, episode.termination, episode.trajectory))
    return cases


KINDS: Counter[str] = Counter()


@pytest.fixture(scope="module")
def parity_table() -> dict[str, tuple[int, int]]:
    """Per domain: (agreeing, total) official rewards; every case also checked for its strict reward."""
    table = {}
    for name in TASKS_PER_DOMAIN:
        domain = _domain(name)
        evaluator = Evaluator(domain)
        agree = total = 0
        with tau2_registry_over(domain):
            for variant, task, termination, trajectory in _cases(name):
                theirs = tau2_reward(name, task, trajectory, termination)
                rewards = evaluator.evaluate(task, trajectory, termination)
                total += 1
                KINDS[variant] += 1
                agree += rewards.reward == theirs
                assert rewards.reward == theirs, (name, task.id, variant, rewards, theirs)
                _check_strict(evaluator, variant, task, trajectory, rewards)
        table[name] = (agree, total)
    return table


def _check_strict(evaluator: Evaluator, variant: str, task, trajectory: list, rewards) -> None:
    """The strict reward differs from the official one only where a named rule says so."""
    from tasks.tau2.rewards import communicated_without_commas, successful_agent_calls

    gold = evaluator.gold_state(task)
    end_hash = evaluator.replay(task, trajectory).get_db_hash()
    if rewards.strict_failures:
        assert rewards.reward_strict == 0.0
    if "no_inaction" in rewards.strict_failures:
        assert not gold.changes_state and successful_agent_calls(trajectory) == 0
    if "no_unrelated_write" in rewards.strict_failures:
        assert end_hash != gold.exact_hashes()[1][0]
    if rewards.reward_strict != rewards.reward and not rewards.strict_failures:
        assert "COMMUNICATE" in rewards.breakdown
        assert communicated_without_commas(task, trajectory) != bool(rewards.breakdown["COMMUNICATE"])
    if variant == "idle":
        assert rewards.reward_strict == 0.0
    if variant == "plus_harmful_write" and end_hash != gold.exact_hashes()[1][0]:
        assert rewards.reward_strict == 0.0


@pytest.mark.slow
def test_official_reward_equals_tau2_on_at_least_60_trajectories(parity_table: dict[str, tuple[int, int]]) -> None:
    print("\nparity (agreeing/total):", {k: f"{a}/{t}" for k, (a, t) in parity_table.items()})
    assert sum(t for _, t in parity_table.values()) >= 60
    assert all(a == t and t >= 10 for a, t in parity_table.values())


@pytest.mark.slow
def test_episodes_and_evaluations_leave_the_loaded_databases_untouched(
    parity_table: dict[str, tuple[int, int]],
) -> None:
    """Copy-on-access tables: after every episode and replay above, fresh environments still hash as τ²'s."""
    from tau2.registry import registry

    for name in TASKS_PER_DOMAIN:
        ours, theirs = _domain(name).environment(), registry.get_env_constructor(name)()
        assert (ours.get_db_hash(), ours.get_user_db_hash()) == (theirs.get_db_hash(), theirs.get_user_db_hash())


@pytest.mark.slow
def test_variants_cover_every_kind(parity_table: dict[str, tuple[int, int]]) -> None:
    assert set(KINDS) == {
        "gold",
        "idle",
        "minus_last_write",
        "changed_argument",
        "plus_harmful_write",
        "wrong_user_action",
    }, KINDS
