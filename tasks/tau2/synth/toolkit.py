"""Toolkits: tools with a kind (READ or WRITE), a description and a pydantic argument model.

Every call is read as untrusted JSON (``harness.json_input``) and validated strictly against the
tool's argument model before the toolkit's ``invoke`` runs it. An invalid call or a failing tool
yields a ``ToolResult`` with ``error=True``; nothing raises out of ``Toolkit.call``.
"""

from __future__ import annotations

import enum
import json
from dataclasses import dataclass
from typing import Any, ClassVar

from pydantic import BaseModel, ValidationError

from harness.api import JsonInputError, parse_json

MAX_ARGUMENT_CHARS = 32_768
MAX_RESULT_CHARS = 16_000


class ToolKind(enum.StrEnum):
    """What a tool does: READ leaves the environment unchanged, WRITE may change it."""

    READ = "read"
    WRITE = "write"


class ToolError(Exception):
    """A tool refused the call (not found, not allowed by the rules); the message goes to the caller."""


def strip_titles(schema: Any) -> Any:
    """A JSON Schema without pydantic's ``title`` keys (models read schemas; titles only cost tokens)."""
    if isinstance(schema, dict):
        return {k: strip_titles(v) for k, v in schema.items() if k != "title"}
    if isinstance(schema, list):
        return [strip_titles(v) for v in schema]
    return schema


@dataclass(frozen=True)
class ToolSpec:
    """One tool: its name, kind, description, argument model and JSON Schema."""

    name: str
    kind: ToolKind
    description: str
    args_model: type[BaseModel]
    parameters: dict[str, Any]

    def openai_schema(self) -> dict[str, Any]:
        """The tool in OpenAI's function-calling format."""
        return {
            "type": "function",
            "function": {"name": self.name, "description": self.description, "parameters": self.parameters},
        }


@dataclass(frozen=True)
class ToolResult:
    """What a call returned: the text shown to the caller, and whether it failed."""

    content: str
    error: bool


def _render(value: Any) -> str:
    if isinstance(value, str):
        text = value
    else:
        if isinstance(value, BaseModel):
            value = value.model_dump(mode="json")
        text = json.dumps(value, sort_keys=True, default=str)
    if len(text) > MAX_RESULT_CHARS:
        text = text[:MAX_RESULT_CHARS] + "...[truncated]"
    return text


def _validation_message(exc: ValidationError) -> str:
    problems = []
    for err in exc.errors()[:5]:
        loc = ".".join(str(p) for p in err["loc"]) or "(arguments)"
        problems.append(f"{loc}: {err['msg']}")
    return "; ".join(problems)


class Toolkit:
    """Base class of a set of tools operating on one database (``self.db``); subclasses set ``_specs`` and
    implement ``invoke``."""

    _specs: ClassVar[dict[str, ToolSpec]] = {}

    def __init__(self, db: Any) -> None:
        self.db = db

    @classmethod
    def specs(cls) -> list[ToolSpec]:
        """The toolkit's tools, sorted by name."""
        return [spec for _, spec in sorted(cls._specs.items())]

    @classmethod
    def spec(cls, name: str) -> ToolSpec | None:
        """The tool called ``name``, or None."""
        return cls._specs.get(name)

    @classmethod
    def tool_names(cls) -> list[str]:
        """Names of every tool."""
        return sorted(cls._specs)

    def invoke(self, name: str, values: dict[str, Any]) -> Any:
        """Run the tool ``name`` with validated ``values``."""
        raise NotImplementedError

    def call(self, name: str, arguments: str | dict[str, Any]) -> ToolResult:
        """Validate and run one call; every failure becomes an error result, never an exception."""
        spec = self.spec(name)
        if spec is None:
            known = ", ".join(self.tool_names())
            return ToolResult(f"Error: unknown tool {name[:80]!r}; available tools: {known}", True)
        text = json.dumps(arguments) if isinstance(arguments, dict) else (arguments if arguments.strip() else "{}")
        if len(text) > MAX_ARGUMENT_CHARS:
            return ToolResult(
                f"Error: arguments of {name} are too large ({len(text)} characters; the limit is {MAX_ARGUMENT_CHARS})",
                True,
            )
        try:
            raw = parse_json(text, f"arguments of {name}")
        except JsonInputError as exc:
            return ToolResult(f"Error: {exc}", True)
        if not isinstance(raw, dict):
            return ToolResult(f"Error: arguments of {name} must be a JSON object, got {type(raw).__name__}", True)
        try:
            parsed = spec.args_model.model_validate(raw, strict=True)
        except ValidationError as exc:
            return ToolResult(f"Error: invalid arguments for {name}: {_validation_message(exc)}", True)
        values = {field: getattr(parsed, field) for field in spec.args_model.model_fields}
        try:
            result = self.invoke(name, values)
        except ToolError as exc:
            return ToolResult(f"Error: {exc}", True)
        except Exception as exc:  # a faulty tool must not end the episode
            return ToolResult(f"Error: {name} failed: {type(exc).__name__}: {exc}", True)
        return ToolResult(_render(result), False)
