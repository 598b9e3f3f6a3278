"""Scripted τ² episodes and τ²'s own verdict on them, for the parity tests, the speed benchmark and synthesis.

``variants`` derives agent plans from a task's gold actions (gold in order; do nothing;
gold minus its last write; gold with one argument changed; gold plus one harmful write; in
telecom, gold plus a wrong user-side action). ``scripted_episode`` runs one plan with the
scripted user through this project's episode loop; ``tau2_reward`` scores the trajectory with
τ²'s ``evaluate_simulation`` itself (optionally over this project's environment constructor,
so that a test can load each database once).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from harness.api import Generation, Message
from tasks.tau2.domains import DomainData
from tasks.tau2.episode import Episode, EpisodeRunner, agent_system_prompt, user_system_prompt
from tasks.tau2.scripted import (
    IDLE_REPLIES,
    closing_message,
    gold_actions,
    history_counts,
    scripted_plan,
    scripted_user_reply,
)

if TYPE_CHECKING:
    from tau2.data_model.tasks import Action
    from tau2.data_model.tasks import Task as Tau2Task
    from tau2.environment.environment import Environment

VARIANTS = ("gold", "idle", "minus_last_write", "changed_argument", "plus_harmful_write", "wrong_user_action")


def _is_write(domain: DomainData, action: Action) -> bool:
    from tau2.environment.toolkit import ToolType

    kit = domain.tools_class if action.requestor == "assistant" else domain.user_tools_class
    tool = getattr(kit, action.name, None) if kit is not None else None
    return getattr(tool, "__tool_type__", None) == ToolType.WRITE


def _changed(action: Action) -> Action | None:
    """The action with its first string or number argument changed, or None when it has none."""
    for key, value in action.arguments.items():
        if isinstance(value, bool):
            continue
        if isinstance(value, str):
            return action.model_copy(update={"arguments": {**action.arguments, key: value + "_X"}})
        if isinstance(value, (int, float)):
            return action.model_copy(update={"arguments": {**action.arguments, key: value + 1}})
    return None


def variants(domain: DomainData, task: Tau2Task, harmful: Action | None) -> dict[str, list[Action]]:
    """The plans this task admits, by variant name."""
    from tau2.data_model.tasks import Action as ActionModel

    gold = gold_actions(task)
    plans: dict[str, list[Action]] = {"gold": gold, "idle": []}
    writes = [i for i, a in enumerate(gold) if _is_write(domain, a)]
    if writes:
        plans["minus_last_write"] = gold[: writes[-1]] + gold[writes[-1] + 1 :]
    for index, action in enumerate(gold):
        changed = _changed(action)
        if changed is not None:
            plans["changed_argument"] = [*gold[:index], changed, *gold[index + 1 :]]
            break
    if harmful is not None:
        plans["plus_harmful_write"] = [*gold, harmful]
    if domain.user_tools_class is not None:
        wrong = ActionModel(action_id="wrong_user_action", requestor="user", name="toggle_airplane_mode", arguments={})
        plans["wrong_user_action"] = [*gold, wrong]
    return plans


def harmful_write(domain: DomainData, tasks: list[Tau2Task], task: Tau2Task) -> Action | None:
    """A write that another task's gold makes (so it is valid in this domain), to add to this task's gold."""
    for other in tasks:
        if other.id == task.id:
            continue
        for action in gold_actions(other):
            if action.requestor == "assistant" and _is_write(domain, action):
                return action
    return None


async def scripted_episode(
    domain: DomainData, task: Tau2Task, actions: list[Action], idle: bool = False, max_steps: int = 200
) -> Episode:
    """One episode: a scripted agent playing ``actions`` (or idle chatter) against the scripted user."""
    env = fresh_task_environment(domain, task)
    closing = Generation(text=IDLE_REPLIES[0], finish_reason="stop") if idle else closing_message(task)
    steps = scripted_plan(actions, closing)

    async def agent(messages: tuple[Message, ...]) -> Generation:
        sent = sum(1 for m in messages if m.role == "assistant") - history_counts(task)[0]
        return steps[sent] if sent < len(steps) else closing

    async def user(messages: tuple[Message, ...]) -> Generation:
        return scripted_user_reply(task, messages, actions)

    has_user_tools = env.user_tools is not None
    runner = EpisodeRunner(
        env,
        agent,
        user,
        agent_system_prompt(domain.policy),
        user_system_prompt(domain.user_guidelines(has_user_tools), str(task.user_scenario)),
        max_steps=max_steps,
    )
    return await runner.run(_history(task))


def _history(task: Tau2Task) -> list:
    state = task.initial_state
    return list(state.message_history or []) if state is not None else []


def fresh_task_environment(domain: DomainData, task: Tau2Task) -> Environment:
    """A new environment in the task's initial state (message history replayed), as τ²'s orchestrator sets it."""
    env = domain.environment()
    state = task.initial_state
    env.set_state(
        initialization_data=state.initialization_data if state else None,
        initialization_actions=state.initialization_actions if state else None,
        message_history=_history(task),
    )
    return env


@contextmanager
def tau2_registry_over(domain: DomainData) -> Iterator[None]:
    """τ²'s evaluator, for the duration, builds ``domain``'s environments with this project's constructor."""
    import tau2.evaluator.evaluator as evaluator_module

    original = evaluator_module.registry

    class Registry:
        def get_env_constructor(self, name: str) -> Callable[..., Environment]:
            return domain.constructor() if name == domain.name else original.get_env_constructor(name)

    evaluator_module.registry = Registry()
    try:
        yield
    finally:
        evaluator_module.registry = original


def tau2_reward(domain_name: str, task: Tau2Task, trajectory: list, termination: str) -> float:
    """τ²'s ``evaluate_simulation`` reward (``EvaluationType.ALL``) of a trajectory."""
    from tau2.data_model.simulation import SimulationRun
    from tau2.evaluator.evaluator import EvaluationType, evaluate_simulation

    simulation = SimulationRun(
        id="parity",
        task_id=task.id,
        start_time="",
        end_time="",
        duration=0.0,
        termination_reason=termination,
        messages=trajectory,
    )
    return evaluate_simulation(simulation, task, EvaluationType.ALL, solo_mode=False, domain=domain_name).reward
