"""τ²-bench's task format (field names as in sierra-research/tau2-bench), validated on load.

``load_tasks`` reads a JSON list of tasks and checks its shape with pydantic (unknown
fields are rejected, so typos surface); ``check_against_domain`` checks that every action,
assertion and setup call names a real tool of the right side with arguments that fit its
schema. Both raise ``TaskFormatError`` naming the task and the field at fault.
"""

from __future__ import annotations

import enum
import json
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from tasks.tools.framework.toolkit import HIDDEN_KINDS, ToolKind
from tasks.tools.jsonfile import read_json_file


class TaskFormatError(ValueError):
    """A task file or task does not follow the format; the message names where."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Description(_Strict):
    """Why the task exists (not shown to the agent)."""

    purpose: str | None = None
    relevant_policies: str | None = None
    notes: str | None = None


class StructuredInstructions(_Strict):
    """What the simulated user wants and knows."""

    domain: str
    reason_for_call: str
    known_info: str | None = None
    unknown_info: str | None = None
    task_instructions: str


class UserScenario(_Strict):
    """The simulated user's persona and instructions."""

    persona: str | None = None
    instructions: StructuredInstructions | str


class Action(_Strict):
    """One gold tool call; ``compare_args`` names the arguments action matching compares (all when None)."""

    action_id: str
    requestor: Literal["user", "assistant"] = "assistant"
    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    info: str | None = None
    compare_args: list[str] | None = None


class EnvFunctionCall(_Strict):
    """A call of an environment function on one side (setup or assertion)."""

    env_type: Literal["user", "assistant"]
    func_name: str
    arguments: dict[str, Any] = Field(default_factory=dict)


class EnvAssertion(EnvFunctionCall):
    """An assertion function whose boolean result must equal ``assert_value``."""

    assert_value: bool = True
    message: str | None = None


class InitializationData(_Strict):
    """Partial databases merged over the domain's initial ones."""

    agent_data: dict[str, Any] | None = None
    user_data: dict[str, Any] | None = None


class InitialState(_Strict):
    """How the environment differs from the domain's default at the start of the task."""

    initialization_data: InitializationData | None = None
    initialization_actions: list[EnvFunctionCall] | None = None
    message_history: list[dict[str, Any]] | None = None


class RewardType(enum.StrEnum):
    """The reward components of τ²."""

    DB = "DB"
    ENV_ASSERTION = "ENV_ASSERTION"
    NL_ASSERTION = "NL_ASSERTION"
    ACTION = "ACTION"
    COMMUNICATE = "COMMUNICATE"


class EvaluationCriteria(_Strict):
    """What the end of the episode is judged on; the reward is the product over ``reward_basis``."""

    actions: list[Action] | None = None
    env_assertions: list[EnvAssertion] | None = None
    communicate_info: list[str] | None = None
    nl_assertions: list[str] | None = None
    reward_basis: list[RewardType] = Field(default_factory=lambda: [RewardType.DB, RewardType.COMMUNICATE])

    @field_validator("reward_basis")
    @classmethod
    def _basis(cls, value: list[RewardType]) -> list[RewardType]:
        if not value:
            raise ValueError("reward_basis is empty: name at least one component")
        if len(set(value)) != len(value):
            raise ValueError("reward_basis repeats a component")
        return value


class TauTask(_Strict):
    """One τ² task."""

    id: str
    description: Description | None = None
    user_scenario: UserScenario
    ticket: str | None = None
    initial_state: InitialState | None = None
    evaluation_criteria: EvaluationCriteria | None = None
    annotations: dict[str, Any] | None = None

    def criteria(self) -> EvaluationCriteria:
        """The evaluation criteria (defaults when the task has none)."""
        return self.evaluation_criteria or EvaluationCriteria()

    def gold_actions(self) -> list[Action]:
        """The gold actions in order."""
        return list(self.criteria().actions or [])


def _where(index: int, raw: Any) -> str:
    task_id = raw.get("id") if isinstance(raw, dict) else None
    return f"task #{index}" + (f" (id {task_id!r})" if task_id is not None else "")


def parse_tasks(data: Any, source: str = "tasks") -> list[TauTask]:
    """Validate a JSON list of task objects; the error names the task, the field and the problem."""
    if not isinstance(data, list):
        raise TaskFormatError(f"{source}: expected a JSON list of tasks, got {type(data).__name__}")
    tasks: list[TauTask] = []
    seen: set[str] = set()
    for index, raw in enumerate(data):
        try:
            task = TauTask.model_validate(raw)
        except ValidationError as exc:
            problems = "; ".join(
                f"{'.'.join(str(p) for p in err['loc']) or '(task)'}: {err['msg']}" for err in exc.errors()[:5]
            )
            raise TaskFormatError(f"{source}: {_where(index, raw)}: {problems}") from None
        if task.id in seen:
            raise TaskFormatError(f"{source}: {_where(index, raw)}: duplicate task id")
        seen.add(task.id)
        tasks.append(task)
    return tasks


def load_tasks(path: str | Path) -> list[TauTask]:
    """Read and validate a τ² ``tasks.json`` file."""
    path = Path(path)
    return parse_tasks(read_json_file(path, TaskFormatError), str(path))


def check_against_domain(task: TauTask, domain: Any) -> None:
    """Check that ``task``'s calls name real tools of the right side with valid arguments, and that its
    initialisation data names only tables the domain's databases have."""
    check_initial_tables(task, domain)
    calls: list[tuple[str, str, str, dict[str, Any], bool]] = []
    for action in task.gold_actions():
        calls.append((f"action {action.action_id}", action.requestor, action.name, action.arguments, False))
    for i, assertion in enumerate(task.criteria().env_assertions or []):
        calls.append((f"env_assertions[{i}]", assertion.env_type, assertion.func_name, assertion.arguments, True))
    for i, setup in enumerate((task.initial_state.initialization_actions or []) if task.initial_state else []):
        calls.append((f"initialization_actions[{i}]", setup.env_type, setup.func_name, setup.arguments, True))
    for where, side, name, arguments, hidden in calls:
        kit = domain.toolkit(side)
        spec = kit.spec(name) if kit is not None else None
        if spec is None or (spec.kind in HIDDEN_KINDS and not hidden):
            raise TaskFormatError(f"task {task.id!r}: {where}: {side} has no tool {name!r}")
        if hidden and where.startswith("env_assertions") and spec.kind not in (ToolKind.ASSERT, ToolKind.READ):
            raise TaskFormatError(f"task {task.id!r}: {where}: {name!r} is not an assertion function")
        try:
            spec.args_model.model_validate_json(json.dumps(arguments), strict=True)
        except ValidationError as exc:
            first = exc.errors()[0]
            raise TaskFormatError(
                f"task {task.id!r}: {where}: arguments of {name}: "
                f"{'.'.join(str(p) for p in first['loc'])}: {first['msg']}"
            ) from None


def check_initial_tables(task: TauTask, domain: Any) -> None:
    """Reject ``initialization_data`` that names a table (top-level field) the side's database does not have."""
    data = task.initial_state.initialization_data if task.initial_state else None
    if data is None:
        return
    for side, update, model in (
        ("agent_data", data.agent_data, domain.db_model),
        ("user_data", data.user_data, domain.user_db_model),
    ):
        if not update:
            continue
        tables = set(model.model_fields) if model is not None else set()
        unknown = sorted(set(update) - tables)
        if unknown:
            raise TaskFormatError(
                f"task {task.id!r}: initialization_data.{side} names unknown table(s) "
                f"{', '.join(map(repr, unknown))}; the database has {', '.join(sorted(tables)) or 'none'}"
            )
