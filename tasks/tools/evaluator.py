"""The evaluator: judge an episode from its logged calls and messages alone, without any model.

Components (τ²'s): DB (replay the logged state-changing calls of both sides on a fresh
environment and the gold actions on another; compare both sides' state hashes), ENV_ASSERTION
(assertion functions on the replayed environment), COMMUNICATE (each info string appears in
an agent message), ACTION (each gold action matched by name and compared arguments) and
NL_ASSERTION (only from judgements recorded during the episode; otherwise "not_evaluated").

The reward is the product over ``reward_basis``. A component without criteria is "empty"
and a DB check whose gold actions change nothing is "vacuous": neither can pass a task on
its own, so an agent that does nothing scores 0 on every task.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from tasks.tools.framework.environment import Domain, Environment
from tasks.tools.framework.toolkit import ToolKind
from tasks.tools.taskformat import Action, RewardType, TauTask

PASSED, FAILED, EMPTY, NOT_EVALUATED = "passed", "failed", "empty", "not_evaluated"


@dataclass
class Component:
    """One reward component: its status, whether it is substantive, and what was checked."""

    status: str
    substantive: bool = True
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self, in_basis: bool) -> dict[str, Any]:
        """A JSON-ready dict."""
        value = {PASSED: 1.0, FAILED: 0.0}.get(self.status)
        return {
            "status": self.status,
            "value": value,
            "in_reward_basis": in_basis,
            "substantive": self.substantive,
            **self.details,
        }


@dataclass
class Verdict:
    """The evaluation: reward (None when it depends on something not evaluated) and every component."""

    reward: float | None
    components: dict[str, dict[str, Any]]
    explanation: str


def _write_calls(domain: Domain, calls: list[dict[str, Any]]) -> list[tuple[Any, str, str]]:
    out = []
    for call in calls:
        kit = domain.toolkit(call["side"])
        spec = kit.spec(call["name"]) if kit is not None else None
        if spec is not None and spec.kind is ToolKind.WRITE:
            out.append((call["side"], call["name"], call["arguments"]))
    return out


def gold_calls(task: TauTask) -> list[tuple[Any, str, str]]:
    """The gold actions as ``(side, name, JSON arguments)`` calls."""
    return [(a.requestor, a.name, json.dumps(a.arguments)) for a in task.gold_actions()]


def replay_gold(domain: Domain, task: TauTask) -> tuple[Environment, list[str]]:
    """The environment after the gold actions, and the error messages of gold calls that failed."""
    env = Environment(domain, task.initial_state)
    results = env.replay(gold_calls(task))
    return env, [f"{name}: {r.content}" for (_, name, _), r in zip(gold_calls(task), results, strict=True) if r.error]


def _reference_states(domain: Domain, task: TauTask) -> dict[str, dict[str, str]]:
    """Canonical initial and gold hashes of a task, computed once per domain and task content."""
    key = f"reference:{task.model_dump_json()}"
    cached = domain._cache.get(key)
    if cached is None:
        gold_env, failures = replay_gold(domain, task)
        if failures:
            raise ValueError(f"gold actions of task {task.id!r} fail: {failures[0]}")
        cached = {
            "initial": Environment(domain, task.initial_state).hashes(canonical=True),
            "gold": gold_env.hashes(),
            "gold_canonical": gold_env.hashes(canonical=True),
        }
        domain._cache[key] = cached
    return cached


def _db_component(domain: Domain, task: TauTask, agent_env: Environment) -> Component:
    reference = _reference_states(domain, task)
    got = agent_env.hashes()
    same = got == reference["gold"] or agent_env.hashes(canonical=True) == reference["gold_canonical"]
    changes = reference["gold_canonical"] != reference["initial"]
    return Component(
        PASSED if same else FAILED,
        substantive=changes,
        details={"gold_hash": reference["gold"], "agent_hash": got, "gold_changes_state": changes},
    )


def _assertion_component(task: TauTask, agent_env: Environment) -> Component:
    assertions = task.criteria().env_assertions or []
    if not assertions:
        return Component(EMPTY, substantive=False)
    checks = []
    for assertion in assertions:
        result = agent_env.call(assertion.env_type, assertion.func_name, assertion.arguments, hidden=True)
        try:
            value = json.loads(result.content) if not result.error else None
        except json.JSONDecodeError:
            value = None
        checks.append(
            {
                "func_name": assertion.func_name,
                "expected": assertion.assert_value,
                "got": value,
                "met": value is assertion.assert_value,
            }
        )
    return Component(PASSED if all(c["met"] for c in checks) else FAILED, details={"checks": checks})


def _normalise(text: str) -> str:
    return " ".join(text.lower().replace(",", "").split())


def _communicate_component(task: TauTask, agent_texts: list[str]) -> Component:
    infos = task.criteria().communicate_info or []
    if not infos:
        return Component(EMPTY, substantive=False)
    said = [_normalise(t) for t in agent_texts]
    checks = [{"info": info, "met": any(_normalise(info) in t for t in said)} for info in infos]
    return Component(PASSED if all(c["met"] for c in checks) else FAILED, details={"checks": checks})


def _canonical_args(domain: Domain, side: str, name: str, arguments: Any) -> dict[str, Any] | None:
    kit = domain.toolkit(side)  # type: ignore[arg-type]
    spec = kit.spec(name) if kit is not None else None
    text = arguments if isinstance(arguments, str) else json.dumps(arguments)
    if spec is None:
        return None
    try:
        return spec.args_model.model_validate_json(text, strict=True).model_dump(mode="json")
    except ValidationError:
        return None


def _action_matches(domain: Domain, gold: Action, call: dict[str, Any]) -> bool:
    if call["side"] != gold.requestor or call["name"] != gold.name:
        return False
    got = _canonical_args(domain, call["side"], call["name"], call["arguments"])
    want = _canonical_args(domain, gold.requestor, gold.name, gold.arguments)
    if got is None or want is None:
        return False
    keys = gold.compare_args if gold.compare_args is not None else list(want)
    return all(got.get(k) == want.get(k) for k in keys)


def _action_component(domain: Domain, task: TauTask, calls: list[dict[str, Any]]) -> Component:
    actions = task.gold_actions()
    if not actions:
        return Component(EMPTY, substantive=False)
    checks = [
        {"action_id": a.action_id, "name": a.name, "met": any(_action_matches(domain, a, c) for c in calls)}
        for a in actions
    ]
    return Component(PASSED if all(c["met"] for c in checks) else FAILED, details={"checks": checks})


def _nl_component(task: TauTask, judgements: list[dict[str, Any]] | None) -> Component:
    assertions = task.criteria().nl_assertions or []
    if not assertions:
        return Component(EMPTY, substantive=False)
    if judgements is None or len(judgements) != len(assertions):
        return Component(NOT_EVALUATED, details={"reason": "no judge model was given"})
    met = all(bool(j.get("met")) for j in judgements)
    return Component(PASSED if met else FAILED, details={"checks": judgements})


def evaluate(
    domain: Domain,
    task: TauTask,
    calls: list[dict[str, Any]],
    agent_texts: list[str],
    judgements: list[dict[str, Any]] | None = None,
) -> Verdict:
    """Judge one episode from its logged calls (``side``, ``name``, ``arguments``) and the agent's texts."""
    agent_env = Environment(domain, task.initial_state)
    agent_env.replay(_write_calls(domain, calls))
    components = {
        RewardType.DB: _db_component(domain, task, agent_env),
        RewardType.ENV_ASSERTION: _assertion_component(task, agent_env),
        RewardType.COMMUNICATE: _communicate_component(task, agent_texts),
        RewardType.ACTION: _action_component(domain, task, calls),
        RewardType.NL_ASSERTION: _nl_component(task, judgements),
    }
    basis = task.criteria().reward_basis
    report = {kind.value: comp.to_json(kind in basis) for kind, comp in components.items()}
    counted = [components[kind] for kind in basis]
    failed = [kind.value for kind in basis if components[kind].status == FAILED]
    if failed:
        return Verdict(0.0, report, f"failed: {', '.join(failed)}")
    pending = [kind.value for kind in basis if components[kind].status == NOT_EVALUATED]
    if pending:
        return Verdict(None, report, f"not evaluated: {', '.join(pending)} (no judge); the rest passed")
    if not any(c.status == PASSED and c.substantive for c in counted):
        return Verdict(0.0, report, "no substantive criterion in reward_basis: nothing the agent did can pass it")
    return Verdict(1.0, report, f"passed: {', '.join(k.value for k in basis)}")
