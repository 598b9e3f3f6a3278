"""Solvability checks shared by the built-in domains, synthesis and the tests.

A task is sound when its gold actions all succeed, the reference agent (gold replay through
a full episode with the scripted user) scores 1, and an agent that does nothing scores 0.
"""

from __future__ import annotations

from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar

from harness.types import GenerateRequest, Generation, Message
from tasks.tools.evaluator import Verdict, evaluate, replay_gold
from tasks.tools.framework.environment import Domain, Environment
from tasks.tools.oracle import reference_generation
from tasks.tools.orchestrator import Episode, run_episode
from tasks.tools.taskformat import TauTask
from tasks.tools.users import ScriptedUser, default_script

T = TypeVar("T")


def run_sync(coroutine: Coroutine[Any, Any, T]) -> T:
    """Drive a coroutine that never suspends (scripted agent and user) to its result, inside or outside a loop."""
    try:
        coroutine.send(None)
    except StopIteration as stop:
        return stop.value
    coroutine.close()
    raise RuntimeError("a scripted episode tried to wait for I/O")


async def run_scripted(domain: Domain, task: TauTask, agent_kind: str = "oracle", max_steps: int = 60) -> Episode:
    """An episode with the scripted user and the oracle (``"oracle"``) or a silent agent (``"nothing"``)."""

    async def agent(messages: tuple[Message, ...], tools: tuple[dict, ...]) -> Generation:
        if agent_kind == "oracle":
            return reference_generation(task, GenerateRequest(messages=messages))
        return Generation(text="I cannot help with that.")

    env = Environment(domain, task.initial_state)
    return await run_episode(env, agent, ScriptedUser(default_script(task)), max_steps=max_steps)


def judge_episode(domain: Domain, task: TauTask, episode: Episode) -> Verdict:
    """Evaluate an in-process episode."""
    calls = [{"side": c.side, "name": c.name, "arguments": c.arguments} for c in episode.calls]
    texts = [m.content for m in episode.messages if m.role == "assistant" and m.content]
    return evaluate(domain, task, calls, texts)


@dataclass(frozen=True)
class Soundness:
    """Whether a task is sound, and why not."""

    ok: bool
    problem: str = ""


def check_task(domain: Domain, task: TauTask) -> Soundness:
    """Gold actions succeed, gold replay scores 1 and doing nothing scores 0."""
    _, failures = replay_gold(domain, task)
    if failures:
        return Soundness(False, f"gold action failed: {failures[0]}")
    oracle = judge_episode(domain, task, run_sync(run_scripted(domain, task, "oracle")))
    if oracle.reward != 1.0:
        return Soundness(False, f"gold replay scores {oracle.reward}: {oracle.explanation}")
    nothing = judge_episode(domain, task, run_sync(run_scripted(domain, task, "nothing")))
    if nothing.reward != 0.0:
        return Soundness(False, f"doing nothing scores {nothing.reward}: {nothing.explanation}")
    return Soundness(True)
