"""A sample's transcript: every message its calls were made on, stored once, referenced by the calls.

A conversation grows by appending, so the requests of an agent loop share their prefixes: the
log keeps each distinct message once, in the order first sent (``SampleResult.transcript``),
and each call names its request's messages as spans of that list (``CallRecord.messages``:
``[[0, 7]]`` for the first seven). The agent's and the simulated user's views of an episode,
a judge's prompt and a method's candidates all draw on the same list, so a message that two of
them send (a shared system prompt, N candidates' one question) is still stored once.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from harness.types import CallRecord, Message, SampleResult, Span

WITHOUT_TRANSCRIPTS = "logged without transcripts (a run written before run format 2)"
"""What is said of a sample whose log line holds no transcript."""


class TranscriptBuilder:
    """Collects the distinct messages of a sample's calls and hands each call its spans."""

    def __init__(self) -> None:
        self.messages: list[Message] = []
        self._index: dict[Message, int] = {}

    def spans(self, messages: Iterable[Message]) -> tuple[Span, ...]:
        """The spans of ``messages`` in the transcript, adding the ones not seen before."""
        spans: list[list[int]] = []
        for message in messages:
            index = self._index.get(message)
            if index is None:
                index = self._index[message] = len(self.messages)
                self.messages.append(message)
            if spans and spans[-1][1] == index:
                spans[-1][1] = index + 1
            else:
                spans.append([index, index + 1])
        return tuple((start, stop) for start, stop in spans)


def call_messages(transcript: Sequence[Message], call: CallRecord) -> tuple[Message, ...]:
    """The messages ``call`` was made on (empty when the log kept none for it)."""
    return tuple(message for start, stop in call.messages or () for message in transcript[start:stop])


def has_transcript(result: SampleResult) -> bool:
    """Whether the log line of ``result`` holds its transcript (run format 2 and later)."""
    return result.transcript is not None


def input_messages(result: SampleResult) -> tuple[Message, ...]:
    """The sample's input as chat messages (a plain prompt is one user message)."""
    if isinstance(result.input, str):
        return (Message(role="user", content=result.input),)
    return result.input


def _asked_model(call: CallRecord) -> bool:
    return call.role == "model" and bool(call.messages)


def conversation(result: SampleResult) -> tuple[Message, ...]:
    """The sample's conversation as the solver saw it last.

    The messages of its last ``model`` call, then the reply: for an agent (an output with a
    trajectory) that call's generation, the trajectory's turns after the agent's last message and the
    simulated user's replies after it (its closing turn); otherwise the output's text, which a method's selection
    makes the answer. The sample's input and output when no call kept its messages.
    """
    transcript = result.transcript or ()
    position = next((i for i in reversed(range(len(result.calls))) if _asked_model(result.calls[i])), None)
    if position is None:
        return (*input_messages(result), Message(role="assistant", content=result.output.text or None))
    last = result.calls[position]
    asked = call_messages(transcript, last)
    trajectory = result.output.trajectory
    if not trajectory:
        return (*asked, Message(role="assistant", content=result.output.text or None))
    final = max((i for i, m in enumerate(trajectory) if m.role == "assistant"), default=-1)
    closing = tuple(
        Message(role="user", content=c.generation.text or None, tool_calls=c.generation.tool_calls)
        for c in result.calls[position + 1 :]
        if c.role == "user"
    )
    return (*asked, last.generation.as_message(), *trajectory[final + 1 :], *closing)


@dataclass(frozen=True)
class CallView:
    """One call of a sample as shown: its place, role, the messages it was made on and what it cost."""

    number: int
    role: str
    messages: int | None
    """How many messages the request held (None: not logged)."""
    reply: Message
    input_tokens: int
    output_tokens: int
    cost_usd: float | None
    latency_s: float
    cached: bool
    retries: int
    selected: bool
    """Whether a method (best-of-N, self-consistency...) selected this call's reply."""


def selected_calls(result: SampleResult) -> set[int]:
    """The calls whose replies a method selected (``selected_calls`` in its notes)."""
    chosen: set[int] = set()
    for notes in result.method_data.values():
        listed = notes.get("selected_calls") if isinstance(notes, dict) else None
        if isinstance(listed, list):
            chosen.update(i for i in listed if isinstance(i, int) and not isinstance(i, bool))
    return chosen


def call_views(result: SampleResult) -> list[CallView]:
    """The sample's calls in the order they were logged."""
    chosen = selected_calls(result)
    return [
        CallView(
            number=index,
            role=call.role,
            messages=None if call.messages is None else sum(stop - start for start, stop in call.messages),
            reply=call.generation.as_message(),
            input_tokens=call.generation.usage.input_tokens,
            output_tokens=call.generation.usage.output_tokens,
            cost_usd=call.generation.cost_usd,
            latency_s=call.generation.latency_s,
            cached=call.cached,
            retries=call.retries,
            selected=index in chosen,
        )
        for index, call in enumerate(result.calls)
    ]
