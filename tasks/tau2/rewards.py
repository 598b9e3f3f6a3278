"""Rewards of a τ² episode: the official one (τ²'s ``evaluate_simulation``) and a strict one beside it.

``reward`` is τ²'s ``evaluate_simulation`` with ``EvaluationType.ALL`` (``ALL_WITH_NL_ASSERTIONS``
when NL assertions are judged): 0 unless the user or agent stopped; 1 without evaluation
criteria; else the product over the task's ``reward_basis`` of the DB check (the trajectory's
tool calls replayed on a fresh environment against the gold actions replayed on another,
agent and user database hashes), the ENV_ASSERTION checks, ACTION (every gold action matched
by name and the arguments on the predicted call's keys, or on ``compare_args``), COMMUNICATE
(each info string, lower-cased, inside an agent message lower-cased with commas removed)
and NL_ASSERTION. τ²'s own component evaluators compute ACTION and COMMUNICATE; the
environment check is τ²'s code with the databases loaded once per process and the gold
end state hashed once per task.

``reward_strict`` is the official reward times these rules (see the README):

- ``no_inaction``: where the gold actions change no state, an episode with no successful
  agent tool call fails (tau2-bench #384: refusals and hand-offs pass on an unchanged DB);
- ``db_differs_from_gold``: the agent database must end as the gold actions leave it, even
  where DB is not in the basis (#459: a telecom run that suspends an uninvolved line). The
  gold actions are replayed as an agent's calls are (τ²'s ``get_response``: ``sync_tools``
  after each call that succeeds), so a bill the user pays is paid in the gold state too;
  τ²'s DB check replays them without it, and the official reward keeps that;
- ``communicate_commas``: a COMMUNICATE string is matched with commas removed on both sides
  (τ² removes them only from the message, so ``"1,628"`` can never match);
- NL assertions, when judged, count even where NL_ASSERTION is not in the basis.

Criteria outside the basis (ACTION, COMMUNICATE, ENV_ASSERTION) are evaluated and reported
in ``outside_basis`` without changing either reward.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tasks.tau2.episode import SCORED_TERMINATIONS

if TYPE_CHECKING:
    from tau2.data_model.simulation import RewardInfo
    from tau2.data_model.tasks import Task as Tau2Task
    from tau2.environment.environment import Environment

    from tasks.tau2.domains import DomainData


class NeedsJudge(Exception):
    """NL assertions are in the task's reward basis but no judge evaluated them."""


Hashes = tuple[str | None, str | None]


@dataclass
class GoldState:
    """A task's initial and gold end states: ``fast`` digests always, τ²'s exact hashes once asked for.

    ``exact`` rebuilds the gold environment (it is not kept: an airline database per task would
    not fit many tasks in memory) and is called only when a fast digest leaves the answer open.
    """

    fast_initial: Hashes
    fast_gold: Hashes
    exact: Callable[[], tuple[Hashes, Hashes]]
    synced: Callable[[], Hashes] | None = None
    _exact: tuple[Hashes, Hashes] | None = None
    _synced: Hashes | None = None

    def exact_hashes(self) -> tuple[Hashes, Hashes]:
        """τ²'s (initial, gold) hashes, computed once."""
        if self._exact is None:
            self._exact = self.exact()
        return self._exact

    def synced_hashes(self) -> Hashes:
        """τ²'s hashes of the gold end state with ``sync_tools`` after each gold call, computed once."""
        if self.synced is None:
            return self.exact_hashes()[1]
        if self._synced is None:
            self._synced = self.synced()
        return self._synced

    @property
    def changes_state(self) -> bool:
        """Whether the gold actions change any database (by τ²'s hash)."""
        if self.fast_initial == self.fast_gold:
            return False
        initial, gold = self.exact_hashes()
        return initial != gold


@dataclass(frozen=True)
class Rewards:
    """Both rewards of an episode, τ²'s breakdown, and what the strict rules and outside-basis checks found."""

    reward: float
    reward_strict: float
    breakdown: dict[str, float]
    strict_failures: tuple[str, ...] = ()
    outside_basis: dict[str, float] = field(default_factory=dict)
    note: str = ""
    checks: dict[str, list[dict[str, object]]] = field(default_factory=dict)
    """Each check behind the breakdown: the database's, each expected action, COMMUNICATE string and
    environment assertion, with whether it held."""


def _initial_kwargs(task: Tau2Task) -> dict:
    state = task.initial_state
    return {
        "initialization_data": state.initialization_data if state else None,
        "initialization_actions": state.initialization_actions if state else None,
    }


def _hashes(env: Environment) -> Hashes:
    return env.get_db_hash(), env.get_user_db_hash()


def fast_hashes(env: Environment) -> Hashes:
    """Digests of pydantic's JSON of each database (Rust-serialised: ~10x faster than τ²'s sorted ``json.dumps``).

    Equal JSON means an equal τ² hash for schemas whose every field has one type (airline,
    retail: ``FAST_HASH_DOMAINS``); unequal JSON can still be an equal τ² hash (dict order),
    so a mismatch is always settled by τ²'s own hash.
    """
    return tuple(
        hashlib.sha256(kit.db.model_dump_json().encode()).hexdigest() if kit is not None else None
        for kit in (env.tools, env.user_tools)
    )  # type: ignore[return-value]


FAST_HASH_DOMAINS = frozenset({"airline", "retail"})


class Evaluator:
    """Evaluates trajectories of one domain; databases loaded once, gold states hashed once per task."""

    def __init__(self, domain: DomainData) -> None:
        self.domain = domain
        self._gold: dict[str, GoldState] = {}
        self._bare: dict[Callable[[Environment], Hashes], Hashes] = {}

    def gold_state(self, task: Tau2Task) -> GoldState:
        """The task's initial and gold states, as τ²'s ``EnvironmentEvaluator`` builds the gold environment."""
        key = hashlib.sha256(task.model_dump_json().encode()).hexdigest()
        if key not in self._gold:
            digest = fast_hashes if self.domain.name in FAST_HASH_DOMAINS else _hashes
            initial, gold = self._gold_run(task, digest)
            synced = (lambda: self._gold_run(task, _hashes, sync=True)[1]) if self.domain.user_tools_class else None
            self._gold[key] = GoldState(initial, gold, lambda: self._gold_run(task, _hashes), synced)
        return self._gold[key]

    def _gold_run(
        self, task: Tau2Task, digest: Callable[[Environment], Hashes], sync: bool = False
    ) -> tuple[Hashes, Hashes]:
        """``digest`` of the task's initial state and of its state after the gold actions (failures skipped).

        ``sync``: each gold action is made as an agent's call is replayed (τ²'s ``get_response``,
        which runs ``sync_tools`` after a call that succeeds); else as τ²'s DB check makes them.
        Tasks without an initial state share one initial digest; no gold actions leave it as it is.
        """
        from tau2.data_model.message import ToolCall

        env = self.domain.environment()
        history = (task.initial_state.message_history if task.initial_state else None) or []
        env.set_state(message_history=history, **_initial_kwargs(task))
        shared = task.initial_state is None
        initial = self._bare.get(digest) if shared else None
        if initial is None:
            initial = digest(env)
            if shared:
                self._bare[digest] = initial
        actions = gold_actions_of(task)
        for index, action in enumerate(actions):
            if sync:
                call = ToolCall(
                    id=f"gold-{index}", name=action.name, arguments=action.arguments, requestor=action.requestor
                )
                env.get_response(call)
                continue
            try:
                env.make_tool_call(tool_name=action.name, requestor=action.requestor, **action.arguments)
            except Exception:
                continue
        return initial, digest(env) if actions else initial

    def replay(self, task: Tau2Task, trajectory: list) -> Environment:
        """A fresh environment with the trajectory's tool calls replayed (τ²'s ``set_state``).

        ValueError when a replayed call's result differs from the logged one.
        """
        env = self.domain.environment()
        env.set_state(message_history=trajectory, **_initial_kwargs(task))
        return env

    def end_matches(self, env: Environment, gold: GoldState) -> tuple[bool, bool]:
        """Whether the agent and user databases equal the gold ones by τ²'s hash, decided once per environment."""
        cached = getattr(env, "_frontier_matches", None)
        if cached is None:
            fast = fast_hashes(env) if self.domain.name in FAST_HASH_DOMAINS else _hashes(env)
            exact = (env.get_db_hash, env.get_user_db_hash)
            matches = [
                fast[side] == gold.fast_gold[side] or exact[side]() == gold.exact_hashes()[1][side] for side in (0, 1)
            ]
            cached = (matches[0], matches[1])
            env._frontier_matches = cached
        return cached

    def matches_synced_gold(self, env: Environment, gold: GoldState) -> bool:
        """Whether the agent database equals the gold one with ``sync_tools`` semantics (the strict rule's state).

        Without a user side ``sync_tools`` changes nothing, and this is the official comparison's answer.
        """
        if gold.synced is None:
            return self.end_matches(env, gold)[0]
        return env.get_db_hash() == gold.synced_hashes()[0]

    def environment_reward(self, task: Tau2Task, env: Environment | None, gold: GoldState) -> RewardInfo:
        """τ²'s ``EnvironmentEvaluator.calculate_reward`` on a replayed environment."""
        from tau2.data_model.simulation import DBCheck, EnvAssertionCheck, RewardInfo
        from tau2.data_model.tasks import RewardType

        criteria = task.evaluation_criteria
        if env is None:
            return RewardInfo(
                reward=1.0,
                db_check=DBCheck(db_match=True, db_reward=1.0),
                info={"note": "No expected actions or env assertions"},
            )
        db_match = all(self.end_matches(env, gold))
        db_reward = 1.0 if db_match else 0.0
        checks, assertion_reward = [], 1.0
        for assertion in criteria.env_assertions or []:
            met = env.run_env_assertion(assertion, raise_assertion_error=False)
            checks.append(EnvAssertionCheck(env_assertion=assertion, met=met, reward=1.0 if met else 0.0))
            assertion_reward *= 1.0 if met else 0.0
        reward, breakdown = 1.0, {}
        if RewardType.DB in criteria.reward_basis:
            breakdown[RewardType.DB] = db_reward
            reward *= db_reward
        if RewardType.ENV_ASSERTION in criteria.reward_basis:
            breakdown[RewardType.ENV_ASSERTION] = assertion_reward
            reward *= assertion_reward
        return RewardInfo(
            reward=reward,
            db_check=DBCheck(db_match=db_match, db_reward=db_reward),
            env_assertions=checks,
            reward_basis=criteria.reward_basis,
            reward_breakdown=breakdown,
        )

    def evaluate(self, task: Tau2Task, trajectory: list, termination: str, nl_met: list[bool] | None = None) -> Rewards:
        """Both rewards of a trajectory; NeedsJudge when NL assertions are in the basis and ``nl_met`` is None."""
        from tau2.evaluator.evaluator_action import ActionEvaluator
        from tau2.evaluator.evaluator_communicate import CommunicateEvaluator

        if termination not in SCORED_TERMINATIONS:
            return Rewards(0.0, 0.0, {}, note=f"Simulation terminated prematurely. Termination reason: {termination}")
        criteria = task.evaluation_criteria
        gold = self.gold_state(task)
        if criteria is None:
            failures = strict_rules(self, task, trajectory, None, gold)
            return Rewards(1.0, 0.0 if failures else 1.0, {}, failures, note="No evaluation criteria")
        needs_env = criteria.actions is not None or criteria.env_assertions is not None
        env = self.replay(task, trajectory) if needs_env else None
        env_info = self.environment_reward(task, env, gold)
        action_info = ActionEvaluator.calculate_reward(task=task, full_trajectory=trajectory)
        communicate_info = CommunicateEvaluator.calculate_reward(task=task, full_trajectory=trajectory)
        basis = {b.value for b in criteria.reward_basis}
        if "NL_ASSERTION" in basis and nl_met is None:
            raise NeedsJudge("NL assertions are part of the reward basis: pass -T judge_model=<adapter spec>")
        nl_reward = None if nl_met is None else (1.0 if all(nl_met) else 0.0)
        breakdown: dict[str, float] = {}
        if basis & {"DB", "ENV_ASSERTION"}:
            breakdown.update({getattr(k, "value", str(k)): v for k, v in (env_info.reward_breakdown or {}).items()})
        if "ACTION" in basis:
            breakdown["ACTION"] = action_info.reward
        if "NL_ASSERTION" in basis and nl_reward is not None:
            breakdown["NL_ASSERTION"] = nl_reward
        if "COMMUNICATE" in basis:
            breakdown["COMMUNICATE"] = communicate_info.reward
        reward = _product(breakdown.values())
        strict_parts = dict(breakdown)
        if "COMMUNICATE" in basis:
            strict_parts["COMMUNICATE"] = 1.0 if communicated_without_commas(task, trajectory) else 0.0
        if nl_reward is not None:
            strict_parts["NL_ASSERTION"] = nl_reward
        failures = strict_rules(self, task, trajectory, env, gold)
        strict = 0.0 if failures else _product(strict_parts.values())
        outside = outside_basis(basis, env_info, action_info.reward, communicate_info.reward)
        if nl_reward is not None and "NL_ASSERTION" not in basis:
            outside["NL_ASSERTION"] = nl_reward
        return Rewards(
            reward, strict, breakdown, failures, outside, checks=checks_of(env_info, action_info, communicate_info)
        )


def _arguments(arguments: object) -> str:
    return json.dumps(arguments, sort_keys=True, ensure_ascii=False, default=str)


def checks_of(env_info: RewardInfo, action_info: RewardInfo, communicate_info: RewardInfo) -> dict[str, list[dict]]:
    """τ²'s individual checks of an episode, as JSON: one row each, ``met`` saying whether it held."""
    db = env_info.db_check
    return {
        "db": [] if db is None else [{"check": "database equals the gold database", "met": db.db_match}],
        "actions": [
            {"action": f"{c.action.name}({_arguments(c.action.arguments)})", "met": c.action_match}
            for c in action_info.action_checks or []
        ],
        "communicate": [{"info": c.info, "met": c.met} for c in communicate_info.communicate_checks or []],
        "env_assertions": [
            {"assertion": f"{c.env_assertion.func_name}({_arguments(c.env_assertion.arguments)})", "met": c.met}
            for c in env_info.env_assertions or []
        ],
    }


def _product(values: Iterable[float]) -> float:
    product = 1.0
    for value in values:
        product *= value
    return product


def gold_actions_of(task: Tau2Task) -> list:
    """The task's gold actions (none without evaluation criteria)."""
    return list(task.evaluation_criteria.actions or []) if task.evaluation_criteria is not None else []


def outside_basis(basis: set[str], env_info: RewardInfo, action: float, communicate: float) -> dict[str, float]:
    """The written criteria that the basis leaves out, evaluated."""
    out: dict[str, float] = {}
    if "ACTION" not in basis:
        out["ACTION"] = action
    if "COMMUNICATE" not in basis:
        out["COMMUNICATE"] = communicate
    if "ENV_ASSERTION" not in basis and env_info.env_assertions:
        out["ENV_ASSERTION"] = 1.0 if all(c.met for c in env_info.env_assertions) else 0.0
    if "DB" not in basis and env_info.db_check is not None:
        out["DB"] = env_info.db_check.db_reward
    return out


def communicated_without_commas(task: Tau2Task, trajectory: list) -> bool:
    """COMMUNICATE with commas removed from the info string as well as from the agent's messages."""
    from tau2.data_model.message import AssistantMessage

    infos = (task.evaluation_criteria.communicate_info or []) if task.evaluation_criteria else []
    texts = [
        m.content.lower().replace(",", "")
        for m in trajectory
        if isinstance(m, AssistantMessage) and m.has_text_content()
    ]
    return all(any(info.lower().replace(",", "") in text for text in texts) for info in infos)


def successful_agent_calls(trajectory: list) -> int:
    """How many agent tool calls the environment answered without an error."""
    from tau2.data_model.message import ToolMessage

    return sum(1 for m in trajectory if isinstance(m, ToolMessage) and m.requestor == "assistant" and not m.error)


def strict_rules(
    evaluator: Evaluator, task: Tau2Task, trajectory: list, env: Environment | None, gold: GoldState
) -> tuple[str, ...]:
    """The strict rules an episode breaks (``no_inaction``, ``db_differs_from_gold``)."""
    failures = []
    if successful_agent_calls(trajectory) == 0 and not gold.changes_state:
        failures.append("no_inaction")
    replayed = env if env is not None else evaluator.replay(task, trajectory)
    if not evaluator.matches_synced_gold(replayed, gold):
        failures.append("db_differs_from_gold")
    return tuple(failures)
