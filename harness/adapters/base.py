"""The model adapter protocol and the base class for method wrappers."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Protocol, runtime_checkable

from harness.errors import ConfigError, MissingCapability
from harness.types import GenerateRequest, Generation, Message

CAPABILITIES = ("chat", "tools", "logprobs", "prompt_logprobs", "reasoning_budget")

PROMPT_LOGPROBS_FLAG = "frontier_prompt_logprobs"


def prompt_logprobs_request(messages: tuple[Message, ...], continuation: str) -> GenerateRequest:
    """A request for the log-probabilities of ``continuation`` as the assistant's reply to ``messages``.

    Adapters with the ``prompt_logprobs`` capability answer it with a Generation whose
    ``text`` is the continuation and whose ``logprobs`` are its tokens'; nothing is generated.
    """
    return GenerateRequest(
        messages=(*messages, Message(role="assistant", content=continuation)),
        max_tokens=0,
        temperature=0.0,
        logprobs=True,
        extra={PROMPT_LOGPROBS_FLAG: True},
    )


@runtime_checkable
class ModelAdapter(Protocol):
    """Anything that turns a GenerateRequest into a Generation."""

    name: str
    capabilities: frozenset[str]

    async def generate(self, request: GenerateRequest) -> Generation:
        """Produce one generation; raise TransientError for retryable failures."""
        ...


@runtime_checkable
class ClosableAdapter(Protocol):
    """An adapter holding resources (HTTP sessions) to release at the end of a run."""

    async def aclose(self) -> None:
        """Release resources."""
        ...


async def close_adapter(adapter: object) -> None:
    """Release ``adapter``'s resources when it holds any (it is a :class:`ClosableAdapter`); else do nothing."""
    if isinstance(adapter, ClosableAdapter):
        await adapter.aclose()


def checked_options(kind: str, options: Mapping[str, object], allowed: Mapping[str, type]) -> dict[str, object]:
    """``options`` (``-M key=value``) of a ``kind`` adapter, each a known name of its type; else a ConfigError."""
    unknown = sorted(set(options) - set(allowed))
    if unknown:
        known = ", ".join(sorted(allowed)) or "none"
        raise ConfigError(f"unknown option(s) for {kind} adapters: {', '.join(unknown)}; known: {known}")
    for name, value in options.items():
        expected = allowed[name]
        if not isinstance(value, expected) or (expected is int and isinstance(value, bool)):
            raise ConfigError(f"{kind} adapter option {name} must be {expected.__name__}, got {value!r}")
    return dict(options)


def require_capability(adapter: ModelAdapter, capability: str, needed_by: str) -> None:
    """Raise MissingCapability, naming it, unless ``adapter`` has ``capability``."""
    if capability not in adapter.capabilities:
        raise MissingCapability(
            f"{needed_by} needs the adapter capability '{capability}', which {adapter.name} lacks "
            f"(it has: {', '.join(sorted(adapter.capabilities)) or 'none'})"
        )


class MethodAdapter:
    """An adapter that wraps another: the base of inference-time methods.

    Subclasses override ``generate`` and call ``self.inner.generate`` as often as
    they need; every inner call is logged and costed by the runner.
    """

    method_name = "method"

    def __init__(self, inner: ModelAdapter, **params: object) -> None:
        self.inner = inner
        self.params = params
        self.name = f"{inner.name}+{self.method_name}"
        self.capabilities = inner.capabilities

    async def generate(self, request: GenerateRequest) -> Generation:
        """Pass through unchanged; subclasses do more."""
        return await self.inner.generate(request)

    async def aclose(self) -> None:
        """Close the wrapped adapter."""
        await close_adapter(self.inner)
