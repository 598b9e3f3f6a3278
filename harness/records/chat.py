"""What a model is asked: chat messages and tool calls, evaluation samples and generation requests."""

from __future__ import annotations

from typing import Any, Literal, TypedDict

from pydantic import Field

from harness.records.base import JsonDict, ModelText, Record


class ToolCall(Record):
    """One function call requested by a model; ``arguments`` is the raw JSON text."""

    id: ModelText
    name: ModelText
    arguments: ModelText = "{}"


class Message(Record):
    """One chat message in OpenAI's shape (system, user, assistant or tool)."""

    role: Literal["system", "user", "assistant", "tool"]
    content: ModelText | None = None
    tool_calls: tuple[ToolCall, ...] = ()
    tool_call_id: str | None = None
    name: str | None = None


class Sample(Record):
    """One evaluation item: a stable id, the input, the reference target and metadata."""

    id: str
    input: str | tuple[Message, ...]
    target: Any = None
    metadata: JsonDict = Field(default_factory=dict)

    def messages(self) -> tuple[Message, ...]:
        """The input as chat messages (a plain prompt becomes one user message)."""
        if isinstance(self.input, str):
            return (Message(role="user", content=self.input),)
        return self.input


class GenerateRequest(Record):
    """Everything an adapter needs to produce one generation."""

    messages: tuple[Message, ...]
    max_tokens: int | None = None
    temperature: float | None = None
    top_p: float | None = None
    n: int = 1
    stop: tuple[str, ...] = ()
    seed: int | None = None
    tools: tuple[JsonDict, ...] = ()
    tool_choice: str | JsonDict | None = None
    logprobs: bool = False
    top_logprobs: int | None = None
    reasoning_budget: int | None = None
    extra: JsonDict = Field(default_factory=dict)

    def is_deterministic(self) -> bool:
        """True when the same request must give the same answer (greedy or seeded)."""
        return self.temperature == 0 or self.seed is not None


class GenerationOverrides(TypedDict, total=False):
    """Fields of a :class:`GenerateRequest` a solver sets for one call: ``ctx.generate(messages, **overrides)``.

    The keys are the request's fields less ``messages`` (a test keeps them equal). A provider's own
    parameters (``response_format``, ``reasoning_effort``, ``extra_body``, llama.cpp's ``top_k``) go in
    ``extra``, which the OpenAI-style adapters merge into the request they send.
    """

    max_tokens: int | None
    temperature: float | None
    top_p: float | None
    n: int
    stop: tuple[str, ...]
    seed: int | None
    tools: tuple[JsonDict, ...]
    tool_choice: str | JsonDict | None
    logprobs: bool
    top_logprobs: int | None
    reasoning_budget: int | None
    extra: JsonDict


SWAPPED_ROLES = {"user": "assistant", "assistant": "user"}


def swap_roles(message: Message) -> Message:
    """``message`` with the user and assistant roles swapped (system and tool messages unchanged)."""
    role = SWAPPED_ROLES.get(message.role)
    return message if role is None else message.model_copy(update={"role": role})
