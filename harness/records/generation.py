"""What a model call returned: the generation with its logprobs and timing, and the record of the call."""

from __future__ import annotations

import math
from typing import Annotated

from pydantic import Field, model_validator

from harness.records.base import ModelText, Record
from harness.records.chat import Message, ToolCall, swap_roles
from harness.records.usage import MAX_TOKENS, Usage


class TokenLogprob(Record):
    """Log-probability of one generated token."""

    token: ModelText
    logprob: float


class Timing(Record):
    """When a call was sent and where its time went, beyond ``Generation.latency_s``; every field is optional,
    so logs and caches written before it existed read as they are.

    ``started_at``: when the request was sent (Unix seconds; the calling layer sets it, so ``started_at +
    latency_s`` is when the answer was read); ``ttft_s``: seconds to the first content token of a streamed
    reply; ``text_tokens``: the tokens the returned text holds after stop truncation, where the reply shows
    them (one streamed delta or one logprobs entry a token), beside the server's count in ``usage``;
    ``server``: numbers the server reported about the call (llama.cpp's ``timings``, usage fields beyond
    OpenAI's, a diffusion server's steps or function evaluations), under dotted names.
    """

    started_at: float | None = Field(default=None, ge=0, allow_inf_nan=False)
    ttft_s: float | None = Field(default=None, ge=0, allow_inf_nan=False)
    text_tokens: int | None = Field(default=None, ge=0, le=MAX_TOKENS)
    server: dict[str, float] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _finite_server_numbers(self) -> Timing:
        """A server figure that is not a finite number has no place in a record."""
        if not all(math.isfinite(value) for value in self.server.values()):
            raise ValueError("server timings must be finite numbers")
        return self


class Generation(Record):
    """What a model returned for one request (the first choice; more in ``alternatives``).

    ``timing`` (written only when known) says when the call was sent and what the server reported of its time.
    """

    text: ModelText = ""
    tool_calls: tuple[ToolCall, ...] = ()
    finish_reason: ModelText | None = None
    usage: Usage = Usage()
    cost_usd: float | None = None
    latency_s: float = 0.0
    logprobs: tuple[TokenLogprob, ...] | None = None
    alternatives: tuple[ModelText, ...] = ()
    model: ModelText | None = None
    timing: Timing | None = Field(default=None, exclude_if=lambda timing: timing is None)

    def as_message(self) -> Message:
        """The generation as an assistant message to append to a conversation."""
        return Message(role="assistant", content=self.text or None, tool_calls=self.tool_calls)


Span = tuple[Annotated[int, Field(ge=0)], Annotated[int, Field(ge=1)]]
"""Messages ``start`` to ``stop - 1`` of a sample's transcript."""


class CallRecord(Record):
    """One model call made while solving a sample: which request, what came back.

    ``messages`` are the request's messages as spans of the sample's ``transcript`` (each
    message is stored once per sample, see :mod:`harness.transcript`); None in a log written
    before transcripts were kept, and for a call made on no logged request (``import``).
    ``roles_swapped``: the request saw the transcript's messages with the user and assistant
    roles swapped (a simulated user's view, in which its own turns are the assistant's).
    """

    request_key: str
    generation: Generation
    role: str = "model"
    retries: int = 0
    cached: bool = False
    messages: tuple[Span, ...] | None = Field(default=None, exclude_if=lambda spans: spans is None)
    roles_swapped: bool = Field(default=False, exclude_if=lambda swapped: not swapped)

    def reply(self) -> Message:
        """The generation as the turn it is in the transcript's roles (a simulated user's reply is a user turn)."""
        message = self.generation.as_message()
        return swap_roles(message) if self.roles_swapped else message
