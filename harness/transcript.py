"""A sample's transcript: every message its calls were made on, stored once, referenced by the calls.

A conversation grows by appending, so the requests of an agent loop share their prefixes: the
log keeps each distinct message once, in the order first sent (``SampleResult.transcript``),
and each call names its request's messages as spans of that list (``CallRecord.messages``:
``[[0, 7]]`` for the first seven). The agent's and the simulated user's views of an episode,
a judge's prompt and a method's candidates all draw on the same list, so a message that two of
them send (a shared system prompt, N candidates' one question) is still stored once. The simulated
user's view, in which its own turns are the assistant's, is stored in the conversation's roles, so
a turn both sides saw is one message; the rest of the log line refers to the list rather than
repeat it (:mod:`harness.stored_once`).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import takewhile

from harness.types import CallRecord, Message, SampleResult, Span, swap_roles

WITHOUT_TRANSCRIPTS = "logged without transcripts (a run written before run format 2)"
"""What is said of a sample whose log line holds no transcript."""
SIMULATED_USER = "user"
"""The role of a simulated user's calls: their requests see the conversation with the user and assistant roles
swapped, and are stored in the conversation's own roles (``CallRecord.roles_swapped``)."""
ENDED_BY = "ended_by"
"""The key of ``Output.data`` where an agent task says that the conversation's last turn ended it:
``{"role": "user", "signal": "stop"}`` (the simulated user stopped)."""


class TranscriptBuilder:
    """Collects the distinct messages of a sample's calls and hands each call its spans."""

    def __init__(self) -> None:
        self.messages: list[Message] = []
        self._index: dict[Message, int] = {}

    def spans(self, messages: Iterable[Message], swapped: bool = False) -> tuple[Span, ...]:
        """The spans of ``messages`` in the transcript, adding the ones not seen before; ``swapped``: the messages
        are a view with the user and assistant roles swapped, stored in the transcript's roles."""
        spans: list[list[int]] = []
        for message in messages:
            if swapped:
                message = swap_roles(message)
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
    """The messages ``call`` was made on, as it was sent them (empty when the log kept none for it)."""
    messages = (message for start, stop in call.messages or () for message in transcript[start:stop])
    return tuple(swap_roles(m) for m in messages) if call.roles_swapped else tuple(messages)


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

    For an agent (an output with a trajectory): the system prompt of its last ``model`` call, the
    trajectory, and the simulated user's replies after that call that the trajectory does not end with
    (a log written before trajectories held the user's closing turn). Otherwise the messages of the last
    ``model`` call and the output's text, which a method's selection makes the answer. The sample's
    input and output when no call kept its messages.
    """
    transcript = result.transcript or ()
    position = next((i for i in reversed(range(len(result.calls))) if _asked_model(result.calls[i])), None)
    if position is None:
        return (*input_messages(result), Message(role="assistant", content=result.output.text or None))
    asked = call_messages(transcript, result.calls[position])
    trajectory = result.output.trajectory
    if not trajectory:
        return (*asked, Message(role="assistant", content=result.output.text or None))
    system = tuple(takewhile(lambda message: message.role == "system", asked))
    closing = tuple(
        swap_roles(c.generation.as_message()) for c in result.calls[position + 1 :] if c.role == SIMULATED_USER
    )
    if closing and trajectory[-len(closing) :] == closing:
        closing = ()
    return (*system, *trajectory, *closing)


def ending(result: SampleResult, shown: Sequence[Message]) -> str | None:
    """How the last turn of ``shown`` (the sample's :func:`conversation`) ended it (``the user's stop``),
    or None when the task did not say (``Output.data["ended_by"]``) or that turn is not the role's it names."""
    said = result.output.data.get(ENDED_BY)
    if not isinstance(said, dict) or not isinstance(said.get("role"), str) or not isinstance(said.get("signal"), str):
        return None
    if not shown or shown[-1].role != said["role"]:
        return None
    return f"the {said['role']}'s {said['signal']}"[:200]


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
