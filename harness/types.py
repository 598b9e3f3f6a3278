"""Core records of the harness: what flows from a suite to a run log.

Every record is an immutable pydantic model that serialises to JSON and back
without loss (``Record.model_validate_json(r.model_dump_json()) == r``).
Containers are tuples so that records compare and hash by value.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable, Sequence
from typing import Annotated, Any, Literal, TypedDict

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    model_serializer,
    model_validator,
)
from pydantic_core import PydanticSerializationError

from harness.stored_once import compact, restore

JsonDict = dict[str, Any]

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def escape_lone_surrogates(text: str) -> str:
    """``text`` with each lone UTF-16 surrogate (U+D800 to U+DFFF, which UTF-8 cannot encode) written as the
    six characters of its JSON escape (``\\ud800``), the way a model's JSON reply carried it."""
    if text.isascii() or _LONE_SURROGATE.search(text) is None:
        return text
    return _LONE_SURROGATE.sub(lambda found: f"\\u{ord(found.group()):04x}", text)


ModelText = Annotated[str, AfterValidator(escape_lone_surrogates)]
"""Text that came from a model or an imported file: stored with its lone surrogates escaped
(:func:`escape_lone_surrogates`), so it can be logged, cached and scored as what was sent."""


def _escaped_json(value: Any) -> Any:
    if isinstance(value, str):
        return escape_lone_surrogates(value)
    if isinstance(value, dict):
        return {escape_lone_surrogates(str(k)): _escaped_json(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_escaped_json(item) for item in value]
    return value


def record_json(record: BaseModel) -> str:
    """``record`` as JSON; a lone surrogate anywhere in it (a tool's data, a score's details) is escaped
    (:func:`escape_lone_surrogates`) instead of failing the write."""
    try:
        return record.model_dump_json()
    except PydanticSerializationError:
        data = _escaped_json(record.model_dump())  # the JSON mode would mangle a dictionary key's surrogate
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"), default=str)


Outcome = Literal["scored", "unscored", "error"]
OUTCOMES: tuple[Outcome, ...] = ("scored", "unscored", "error")


class Record(BaseModel):
    """Base of every core record: frozen, strict about unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")


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


MAX_TOKENS = 10**10
"""The most tokens a usage record is believed to count (a run's total included): far beyond any real one."""
TOKEN_FIELDS = ("input_tokens", "output_tokens", "reasoning_tokens", "cached_tokens")


def _believable(value: object) -> bool:
    """Whether a reported token count is a whole number from 0 to ``MAX_TOKENS`` (absent counts as 0)."""
    if value is None:
        return True
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return (isinstance(value, int) or value.is_integer()) and 0 <= value <= MAX_TOKENS


class Usage(Record):
    """Token counts of one or more calls; reasoning tokens are part of output tokens.

    ``unknown`` marks counts that leave out a call whose reported usage was not believed (negative,
    not an integer, absurdly large): they are then a lower bound, kept out of token budgets' and
    plots' totals. It is written only when true.
    """

    input_tokens: int = 0
    output_tokens: int = 0
    reasoning_tokens: int = 0
    cached_tokens: int = 0
    unknown: bool = Field(default=False, exclude_if=lambda unknown: not unknown)

    @model_validator(mode="before")
    @classmethod
    def _believed(cls, data: Any) -> Any:
        """Counts that are not whole numbers from 0 to ``MAX_TOKENS`` (``-100000000``, ``1e300``, ``12.5``,
        ``"12"``) are not believed: the usage becomes unknown, with no counts, whoever reported it."""
        if not isinstance(data, dict):
            return data
        counts = {name: data.get(name) for name in TOKEN_FIELDS}
        if all(_believable(value) for value in counts.values()):
            return {**data, **{name: int(value or 0) for name, value in counts.items()}}
        return {**{name: 0 for name in TOKEN_FIELDS}, "unknown": True}

    @property
    def total_tokens(self) -> int:
        """Input plus output tokens."""
        return self.input_tokens + self.output_tokens

    @classmethod
    def total(cls, usages: Iterable[Usage]) -> Usage:
        """The sum of ``usages`` (no tokens when there are none)."""
        return sum(usages, cls())

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            reasoning_tokens=self.reasoning_tokens + other.reasoning_tokens,
            cached_tokens=self.cached_tokens + other.cached_tokens,
            unknown=self.unknown or other.unknown,
        )


def summed_cost(costs: Sequence[float | None]) -> tuple[float | None, bool]:
    """The calls' total cost (None when no call's cost is known) and whether every call's cost is known."""
    known = [cost for cost in costs if cost is not None]
    return (math.fsum(known) if known else None), len(known) == len(costs)


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


SWAPPED_ROLES = {"user": "assistant", "assistant": "user"}


def swap_roles(message: Message) -> Message:
    """``message`` with the user and assistant roles swapped (system and tool messages unchanged)."""
    role = SWAPPED_ROLES.get(message.role)
    return message if role is None else message.model_copy(update={"role": role})


class Score(Record):
    """The judgement of one output.

    ``unscored`` means the answer could not be parsed; it is never silently wrong.
    ``error`` means the evaluation itself failed (model call or scorer).
    """

    value: float | None = None
    correct: bool | None = None
    outcome: Outcome = "scored"
    answer: str | None = None
    explanation: str = ""
    details: JsonDict = Field(default_factory=dict)

    @classmethod
    def of(cls, correct: bool, answer: str | None = None, explanation: str = "", **details: Any) -> Score:
        """A scored binary judgement."""
        return cls(
            value=1.0 if correct else 0.0, correct=correct, answer=answer, explanation=explanation, details=details
        )

    @classmethod
    def unscored(cls, explanation: str, **details: Any) -> Score:
        """An answer that could not be parsed."""
        return cls(outcome="unscored", explanation=explanation, details=details)

    @classmethod
    def error(cls, explanation: str, **details: Any) -> Score:
        """An evaluation that failed."""
        return cls(outcome="error", explanation=explanation, details=details)


class Output(Record):
    """What a task's solver produced for a sample: the final text and any trajectory."""

    text: ModelText = ""
    trajectory: tuple[Message, ...] = ()
    data: JsonDict = Field(default_factory=dict)


class SampleResult(Record):
    """One line of ``samples.jsonl``: a sample, what the model did and how it scored.

    Each text is stored once: serialised, what is already in the ``transcript`` (a call's reply,
    ``output.text``, ``output.trajectory``) is a reference to it, and reading the record back
    puts it back (:mod:`harness.stored_once`), so ``model_validate_json(r.model_dump_json()) == r``.
    """

    sample_id: str
    task: str
    input: str | tuple[Message, ...]
    target: Any = None
    output: Output = Output()
    score: Score
    calls: tuple[CallRecord, ...] = ()
    usage: Usage = Usage()
    cost_usd: float | None = None
    cost_known: bool = True
    retries: int = 0
    latency_s: float = 0.0
    metadata: JsonDict = Field(default_factory=dict)
    method_data: JsonDict = Field(default_factory=dict)
    transcript: tuple[Message, ...] | None = Field(default=None, exclude_if=lambda messages: messages is None)
    """Every distinct message the sample's calls were made on, once, in the order first sent; None in a
    log written before transcripts were kept."""

    @model_validator(mode="after")
    def _spans_within_transcript(self) -> SampleResult:
        """Every call's message spans lie within the transcript (a log line is untrusted)."""
        size = len(self.transcript or ())
        for number, call in enumerate(self.calls):
            for start, stop in call.messages or ():
                if not start < stop <= size:
                    raise ValueError(f"call {number} names messages {start}..{stop - 1} of a {size}-message transcript")
        return self

    @model_validator(mode="before")
    @classmethod
    def _restore_stored_once(cls, data: Any) -> Any:
        """Put back every text stored as a reference to the transcript (see :mod:`harness.stored_once`)."""
        return restore(data)

    @model_serializer(mode="wrap")
    def _store_once(self, handler: SerializerFunctionWrapHandler) -> Any:
        """Store each text already in the transcript as a reference to it (see :mod:`harness.stored_once`)."""
        data = handler(self)
        return compact(self, data) if isinstance(data, dict) else data


class MetricScale(Record):
    """The range a metric's values lie in and which end is better, declared by the task.

    Only for a metric that is not a 0..1 higher-is-better share (a deviation in CVSS points, say): the
    leaderboard maps it onto 0..1 by ``(value - low) / (high - low)``, or ``(high - value) / (high - low)``
    when lower is better, so that it can join a family's and the overall score.
    """

    low: float
    high: float
    higher_is_better: bool = True

    @model_validator(mode="after")
    def _a_finite_range(self) -> MetricScale:
        if not (math.isfinite(self.low) and math.isfinite(self.high) and self.low < self.high):
            raise ValueError(f"a metric's scale needs finite low < high, got [{self.low}, {self.high}]")
        return self


class MetricValue(Record):
    """A metric with its sample count and 95% confidence interval, and its scale when the task declares one."""

    value: float | None
    n: int
    ci_low: float | None = None
    ci_high: float | None = None
    method: str = ""
    scale: MetricScale | None = Field(default=None, exclude_if=lambda scale: scale is None)


class TaskSummary(Record):
    """Aggregates of one task in a run."""

    metrics: dict[str, MetricValue]
    counts: dict[str, int]
    usage: Usage
    cost_usd: float | None
    cost_known: bool = True
    retries: int = 0
    calls: int = 0
    cached_calls: int = 0
    throughput: JsonDict | None = Field(default=None, exclude_if=lambda block: block is None)
    """Output tokens per second as ``harness.throughput`` defines them; absent when no call was timed."""


class RunSummary(Record):
    """``summary.json``: per-task metrics, counts, usage and cost, plus provenance."""

    run_id: str
    model: str
    methods: tuple[str, ...] = ()
    suite: str | None = None
    seed: int = 0
    harness_version: str
    config_hash: str
    tasks: dict[str, TaskSummary]
    started_at: str
    finished_at: str
    complete: bool = True
