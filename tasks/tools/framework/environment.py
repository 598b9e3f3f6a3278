"""Domains and environments: a database per side, toolkits over them, hashing and replay.

A ``Domain`` names a policy, a factory for the agent's database, the agent's toolkit and
optionally the user's (dual control: the user operates a device the agent cannot touch).
An ``Environment`` is one live instance for an episode, initialised from a task's
``initial_state``; its state is compared across replays by hashing canonical JSON.
"""

from __future__ import annotations

import copy
import hashlib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ValidationError

from tasks.tools.framework.toolkit import Toolkit, ToolResult

Side = Literal["assistant", "user"]


class SetupError(Exception):
    """A task's initial state or setup cannot be applied to the domain."""


def state_hash(db: BaseModel | None) -> str:
    """SHA-256 of a database's JSON in field and insertion order (fast); ``"-"`` for an absent database.

    Equal hashes mean equal states; unequal ones may differ only in dict insertion order,
    which ``canonical_hash`` settles.
    """
    if db is None:
        return "-"
    return hashlib.sha256(db.model_dump_json().encode()).hexdigest()


def canonical_hash(db: BaseModel | None) -> str:
    """SHA-256 of a database's canonical JSON (sorted keys): independent of insertion order."""
    if db is None:
        return "-"
    payload = json.dumps(db.model_dump(mode="json"), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(payload.encode()).hexdigest()


def deep_merge(base: dict[str, Any], update: dict[str, Any]) -> dict[str, Any]:
    """``base`` updated recursively with ``update`` (dicts merge, everything else replaces)."""
    merged = dict(base)
    for key, value in update.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = deep_merge(merged[key], value)
        else:
            merged[key] = copy.deepcopy(value)
    return merged


@dataclass(frozen=True)
class Domain:
    """A tool-use domain: policy, databases, toolkits and its tasks (τ² format)."""

    name: str
    policy: str
    db_model: type[BaseModel]
    db_data: Callable[[], dict[str, Any]]
    agent_toolkit: type[Toolkit]
    user_toolkit: type[Toolkit] | None = None
    user_db_model: type[BaseModel] | None = None
    user_db_data: Callable[[], dict[str, Any]] | None = None
    tasks_loader: Callable[[], list[Any]] = field(default=lambda: [])
    _cache: dict[str, Any] = field(default_factory=dict, compare=False, repr=False)

    def base_data(self, side: Side) -> dict[str, Any] | None:
        """The side's initial database as JSON-ready data (computed once, then copied)."""
        key = f"db:{side}"
        if key not in self._cache:
            factory = self.db_data if side == "assistant" else self.user_db_data
            self._cache[key] = factory() if factory is not None else None
        return self._cache[key]

    def toolkit(self, side: Side) -> type[Toolkit] | None:
        """The toolkit class of ``side`` (None when the user has no tools)."""
        return self.agent_toolkit if side == "assistant" else self.user_toolkit

    def tasks(self) -> list[Any]:
        """The domain's tasks, loaded and validated once."""
        if "tasks" not in self._cache:
            self._cache["tasks"] = self.tasks_loader()
        return self._cache["tasks"]


class Environment:
    """A live instance of a domain for one episode or one replay."""

    def __init__(self, domain: Domain, initial_state: Any = None) -> None:
        self.domain = domain
        agent_data, user_data = domain.base_data("assistant"), domain.base_data("user")
        init = getattr(initial_state, "initialization_data", None)
        if init is not None and init.agent_data:
            agent_data = deep_merge(agent_data or {}, init.agent_data)
        if init is not None and init.user_data:
            user_data = deep_merge(user_data or {}, init.user_data)
        try:
            self.agent_db = domain.db_model.model_validate(agent_data)
            self.user_db = (
                domain.user_db_model.model_validate(user_data)
                if domain.user_db_model is not None and user_data is not None
                else None
            )
        except ValidationError as exc:
            raise SetupError(f"initial state does not fit domain {domain.name}: {exc}") from None
        self.agent = domain.agent_toolkit(self.agent_db, self.user_db)
        self.user = domain.user_toolkit(self.user_db, self.agent_db) if domain.user_toolkit is not None else None
        for action in getattr(initial_state, "initialization_actions", None) or ():
            result = self.call(action.env_type, action.func_name, action.arguments, hidden=True)
            if result.error:
                raise SetupError(f"initialization action {action.func_name} failed: {result.content}")

    def call(self, side: Side, name: str, arguments: str | dict[str, Any], hidden: bool = False) -> ToolResult:
        """Run one call on ``side``'s toolkit; a side without tools answers with an error."""
        kit = self.agent if side == "assistant" else self.user
        if kit is None:
            return ToolResult(f"Error: the {side} has no tools", True)
        return kit.call(name, arguments, hidden=hidden)

    def hashes(self, canonical: bool = False) -> dict[str, str]:
        """State hashes of both sides (``canonical``: independent of dict insertion order)."""
        digest = canonical_hash if canonical else state_hash
        return {"assistant": digest(self.agent_db), "user": digest(self.user_db)}

    def replay(self, calls: Iterable[tuple[Side, str, str | dict[str, Any]]]) -> list[ToolResult]:
        """Run ``(side, name, arguments)`` calls in order; returns each result."""
        return [self.call(side, name, arguments) for side, name, arguments in calls]
