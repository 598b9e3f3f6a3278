"""Shared helpers of the tool-use tests: judge gold, silent and wrong-write episodes."""

from __future__ import annotations

import json
from typing import Any

from tasks.tools.evaluator import Verdict, evaluate, gold_calls, replay_gold
from tasks.tools.framework.environment import Domain, Environment
from tasks.tools.framework.toolkit import ToolKind
from tasks.tools.oracle import final_message
from tasks.tools.taskformat import TauTask


def gold_call_dicts(task: TauTask) -> list[dict[str, Any]]:
    """The gold actions as logged-call dicts."""
    return [{"side": side, "name": name, "arguments": args} for side, name, args in gold_calls(task)]


def candidate_writes(domain: Domain) -> list[dict[str, Any]]:
    """Every gold write call of every task of the domain (valid calls to try elsewhere)."""
    out = []
    for task in domain.tasks():
        for call in gold_call_dicts(task):
            kit = domain.toolkit(call["side"])
            spec = kit.spec(call["name"]) if kit is not None else None
            if spec is not None and spec.kind is ToolKind.WRITE:
                out.append(call)
    return out


def wrong_write(domain: Domain, task: TauTask, candidates: list[dict[str, Any]]) -> dict[str, Any] | None:
    """A write call that succeeds after the gold actions and leaves a different state."""
    gold_env, _ = replay_gold(domain, task)
    target = gold_env.hashes()
    for call in candidates:
        env, _ = replay_gold(domain, task)
        result = env.call(call["side"], call["name"], call["arguments"])
        if not result.error and env.hashes() != target:
            return call
    return None


def judge(domain: Domain, task: TauTask, calls: list[dict[str, Any]], say_info: bool = True) -> Verdict:
    """Evaluate logged calls, with the oracle's closing message as the agent's text when ``say_info``."""
    texts = [final_message(task).text] if say_info else []
    return evaluate(domain, task, calls, texts)


def fresh_hash(domain: Domain, task: TauTask) -> dict[str, str]:
    """The task's initial state hashes."""
    return Environment(domain, task.initial_state).hashes()


def dumps(value: Any) -> str:
    """Compact JSON."""
    return json.dumps(value)
