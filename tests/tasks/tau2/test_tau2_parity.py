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
    if "db_differs_from_gold" in rewards.strict_failures:
        assert end_hash != gold.synced_hashes()[0]
    if rewards.reward_strict != rewards.reward and not rewards.strict_failures:
        assert "COMMUNICATE" in rewards.breakdown
        assert communicated_without_commas(task, trajectory) != bool(rewards.breakdown["COMMUNICATE"])
    if variant == "idle":
        assert rewards.reward_strict == 0.0
    if variant == "plus_harmful_write" and end_hash != gold.synced_hashes()[0]:
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


@pytest.fixture(scope="module")
def every_base_task() -> dict[str, dict[str, list]]:
    """Per domain, the gold and idle episodes of every base task (issue 37 item 12): gold scored here and by τ²
    (whose evaluation takes most of the time), idle here only (τ² scores idle episodes in ``parity_table``)."""
    from tasks.tau2.scripted import gold_actions

    found: dict[str, dict[str, list]] = {}
    for name in TASKS_PER_DOMAIN:
        domain = _domain(name)
        evaluator = Evaluator(domain)
        found[name] = {"gold": [], "idle": []}
        with tau2_registry_over(domain):
            for task in domain.tasks("base"):
                for variant, plan in (("gold", gold_actions(task)), ("idle", [])):
                    episode = asyncio.run(scripted_episode(domain, task, plan, idle=variant == "idle"))
                    rewards = evaluator.evaluate(task, episode.trajectory, episode.termination)
                    if variant == "gold":
                        theirs = tau2_reward(name, task, episode.trajectory, episode.termination)
                        assert rewards.reward == theirs, (name, task.id, variant, rewards, theirs)
                    _check_strict(evaluator, variant, task, episode.trajectory, rewards)
                    found[name][variant].append((task.id, rewards, episode.trajectory))
    return found


@pytest.mark.slow
@pytest.mark.timeout(900)  # about 75 s of CPU, mostly τ²'s own evaluation of the airline and retail episodes
def test_official_reward_equals_tau2_on_every_base_task(every_base_task: dict[str, dict[str, list]]) -> None:
    """The gold episodes of all 278 base tasks (airline 50, retail 114, telecom 114) score as τ² scores them."""
    counts = {name: len(by["gold"]) for name, by in every_base_task.items()}
    assert counts == {"airline": 50, "retail": 114, "telecom": 114}
    assert all(len(by["idle"]) == len(by["gold"]) for by in every_base_task.values())


@pytest.mark.slow
def test_gold_replay_is_strictly_right_unless_it_never_looks(every_base_task: dict[str, dict[str, list]]) -> None:
    """The gold actions, replayed, get strict 1 on every base task, telecom's user-paid bills included (the gold
    state follows τ²'s sync_tools); the only exception is gold that makes no successful agent call on a task it
    leaves unchanged (airline 0, 10, 26, 28, 31, 34, 46; retail 24, 57, 105): strict wants an agent that looks
    before it refuses."""
    from tasks.tau2.rewards import successful_agent_calls

    never_looks = {}
    for name, by in every_base_task.items():
        for task_id, rewards, trajectory in by["gold"]:
            if rewards.reward_strict == 1.0:
                continue
            assert rewards.strict_failures == ("no_inaction",) and successful_agent_calls(trajectory) == 0
            never_looks.setdefault(name, []).append(task_id)
    assert never_looks == {
        "airline": ["0", "10", "26", "28", "31", "34", "46"],
        "retail": ["24", "57", "105"],
    }


@pytest.mark.slow
def test_an_idle_agent_fails_strict_with_a_truthful_label(every_base_task: dict[str, dict[str, list]]) -> None:
    """Idle episodes: strict 0 wherever the gold changes anything, named for what differs."""
    labels: Counter[str] = Counter()
    for by in every_base_task.values():
        for _, rewards, _ in by["idle"]:
            labels.update(rewards.strict_failures)
    assert set(labels) == {"no_inaction", "db_differs_from_gold"} and labels["db_differs_from_gold"] >= 100
