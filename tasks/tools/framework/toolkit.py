"""Toolkits: methods tagged READ / WRITE / ASSERT whose JSON Schemas come from type hints and docstrings.

A toolkit is a class whose tool methods carry the ``@tool(...)`` decorator. Each tool's
argument model is built with pydantic from the method's signature, the description and
per-parameter descriptions come from its Google-style docstring, and every call is
validated against that model (strictly, from the raw JSON text) before it runs. An
invalid call or a failing tool yields a ``ToolResult`` with ``error=True``; nothing raises
out of ``Toolkit.call``.
"""

from __future__ import annotations

import enum
import inspect
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar, TypeVar, get_type_hints

from pydantic import BaseModel, ConfigDict, ValidationError, create_model

MAX_ARGUMENT_CHARS = 32_768
MAX_RESULT_CHARS = 16_000


class ToolKind(enum.StrEnum):
    """What a tool does: READ leaves the environment unchanged, WRITE may change it; ASSERT
    (evaluation checks) and SETUP (task initialisation) are hidden from agents and users."""

    READ = "read"
    WRITE = "write"
    ASSERT = "assert"
    SETUP = "setup"


HIDDEN_KINDS = frozenset({ToolKind.ASSERT, ToolKind.SETUP})


class ToolError(Exception):
    """A tool refused the call (not found, not allowed by the rules); the message goes to the caller."""


F = TypeVar("F", bound=Callable[..., Any])


def tool(kind: ToolKind) -> Callable[[F], F]:
    """Mark a toolkit method as a tool of ``kind``."""

    def mark(func: F) -> F:
        func.__tool_kind__ = kind  # type: ignore[attr-defined]
        return func

    return mark


def parse_docstring(doc: str | None) -> tuple[str, dict[str, str]]:
    """The summary and the ``Args:`` descriptions of a Google-style docstring."""
    if not doc:
        return "", {}
    lines = inspect.cleandoc(doc).splitlines()
    summary: list[str] = []
    params: dict[str, str] = {}
    section = "summary"
    current: str | None = None
    for line in lines:
        stripped = line.strip()
        if re.fullmatch(r"(Args|Arguments|Parameters):", stripped):
            section, current = "args", None
            continue
        if re.fullmatch(r"(Returns|Raises|Yields|Examples?|Notes?):", stripped):
            section, current = "other", None
            continue
        if section == "summary":
            if stripped:
                summary.append(stripped)
        elif section == "args" and stripped:
            match = re.match(r"(\w+)\s*(\([^)]*\))?\s*:\s*(.*)", stripped)
            if match and line.startswith(" " * 4) and not line.startswith(" " * 8):
                current = match.group(1)
                params[current] = match.group(3).strip()
            elif current is not None:
                params[current] = f"{params[current]} {stripped}".strip()
    return " ".join(summary), params


def _strip_titles(schema: Any) -> Any:
    if isinstance(schema, dict):
        return {k: _strip_titles(v) for k, v in schema.items() if k != "title"}
    if isinstance(schema, list):
        return [_strip_titles(v) for v in schema]
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


def build_spec(name: str, func: Callable[..., Any], kind: ToolKind) -> ToolSpec:
    """Derive a ToolSpec from a method's signature, type hints and docstring."""
    summary, param_docs = parse_docstring(func.__doc__)
    if not summary:
        raise TypeError(f"tool {name} has no docstring to describe it")
    hints = get_type_hints(func)
    fields: dict[str, Any] = {}
    for pname, param in inspect.signature(func).parameters.items():
        if pname == "self":
            continue
        if pname not in hints:
            raise TypeError(f"tool {name}: parameter {pname} has no type hint")
        from pydantic import Field

        default = ... if param.default is inspect.Parameter.empty else param.default
        fields[pname] = (hints[pname], Field(default, description=param_docs.get(pname)))
    model = create_model(f"{name}_arguments", __config__=ConfigDict(extra="forbid"), **fields)
    parameters = _strip_titles(model.model_json_schema())
    parameters.setdefault("properties", {})
    parameters.setdefault("required", [])
    return ToolSpec(name=name, kind=kind, description=summary, args_model=model, parameters=parameters)


@dataclass(frozen=True)
class ToolResult:
    """What a call returned: the text shown to the caller, whether it failed, and the parsed arguments."""

    content: str
    error: bool
    arguments: dict[str, Any] | None = None


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
    """Base class of a set of tools operating on one database (``self.db``).

    ``self.peer`` is the other side's database (the agent's for user-side tools), for
    tools whose effect depends on both, such as a phone that needs an active line.
    """

    _specs: ClassVar[dict[str, ToolSpec]]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "_specs" in cls.__dict__:  # built programmatically (synthesized toolkits)
            return
        specs: dict[str, ToolSpec] = {}
        for name in dir(cls):
            member = getattr(cls, name, None)
            kind = getattr(member, "__tool_kind__", None)
            if kind is not None and callable(member):
                specs[name] = build_spec(name, member, kind)
        cls._specs = specs

    def __init__(self, db: Any, peer: Any = None) -> None:
        self.db = db
        self.peer = peer

    @classmethod
    def specs(cls, *kinds: ToolKind) -> list[ToolSpec]:
        """The toolkit's tools of the given kinds (all kinds when none given), sorted by name."""
        wanted = set(kinds) or set(ToolKind)
        return [spec for name, spec in sorted(cls._specs.items()) if spec.kind in wanted]

    @classmethod
    def spec(cls, name: str) -> ToolSpec | None:
        """The tool called ``name``, or None."""
        return cls._specs.get(name)

    @classmethod
    def openai_tools(cls) -> tuple[dict[str, Any], ...]:
        """READ and WRITE tools in OpenAI's function format (ASSERT tools are never shown)."""
        return tuple(spec.openai_schema() for spec in cls.specs(ToolKind.READ, ToolKind.WRITE))

    @classmethod
    def tool_names(cls) -> list[str]:
        """Names of every tool, hidden ones included."""
        return sorted(cls._specs)

    def invoke(self, name: str, values: dict[str, Any]) -> Any:
        """Run the tool ``name`` with validated ``values`` (subclasses may dispatch differently)."""
        return getattr(self, name)(**values)

    def call(self, name: str, arguments: str | dict[str, Any], hidden: bool = False) -> ToolResult:
        """Validate and run one call; every failure becomes an error result, never an exception.

        ``hidden`` also allows ASSERT and SETUP tools (the evaluator and task setup use them).
        """
        spec = self._specs.get(name)
        if spec is None or (spec.kind in HIDDEN_KINDS and not hidden):
            known = ", ".join(s.name for s in self.specs(ToolKind.READ, ToolKind.WRITE))
            return ToolResult(f"Error: unknown tool {name[:80]!r}; available tools: {known}", True)
        text = json.dumps(arguments) if isinstance(arguments, dict) else (arguments if arguments.strip() else "{}")
        if len(text) > MAX_ARGUMENT_CHARS:
            return ToolResult(
                f"Error: arguments of {name} are too large ({len(text)} characters; the limit is {MAX_ARGUMENT_CHARS})",
                True,
            )
        try:
            raw = json.loads(text)
        except (json.JSONDecodeError, RecursionError) as exc:
            return ToolResult(f"Error: arguments of {name} are not valid JSON: {exc}", True)
        if not isinstance(raw, dict):
            return ToolResult(f"Error: arguments of {name} must be a JSON object, got {type(raw).__name__}", True)
        try:
            parsed = spec.args_model.model_validate_json(text, strict=True)
        except ValidationError as exc:
            return ToolResult(f"Error: invalid arguments for {name}: {_validation_message(exc)}", True, raw)
        values = {field: getattr(parsed, field) for field in spec.args_model.model_fields}
        try:
            result = self.invoke(name, values)
        except ToolError as exc:
            return ToolResult(f"Error: {exc}", True, raw)
        except Exception as exc:  # a faulty tool must not end the episode
            return ToolResult(f"Error: {name} failed: {type(exc).__name__}: {exc}", True, raw)
        return ToolResult(_render(result), False, raw)
