"""How a sample's log line stores each text once, and how reading it puts every copy back.

A sample's ``transcript`` holds each distinct message its calls were made on (see
:mod:`harness.transcript`). The rest of the line refers to it rather than repeating it:

- a call's reply that is a transcript message (an agent's turn that its next request carries, a
  simulated user's turn, the closing turns an agent's trajectory adds) is ``"reply": 12``, and the
  call's generation keeps neither its text nor its tool calls;
- ``output.text`` that is a transcript message's text is ``{"transcript": 12}``;
- another call whose generation text is ``output.text`` keeps ``"text": null``;
- an ``output.trajectory`` whose messages are all in the transcript is ``{"transcript_spans": [[1, 9]]}``.

:func:`compact` writes a dumped record so; :func:`restore` reads one back, so that a record
read from its own dump equals it. A reference outside the transcript is a ``ValueError`` naming
it (a log line is untrusted).
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any


def _first_positions(transcript: Sequence[Hashable]) -> dict[Hashable, int]:
    first: dict[Hashable, int] = {}
    for index, message in enumerate(transcript):
        first.setdefault(message, index)
    return first


def _spans(positions: list[int]) -> list[list[int]]:
    spans: list[list[int]] = []
    for at in positions:
        if spans and spans[-1][1] == at:
            spans[-1][1] = at + 1
        else:
            spans.append([at, at + 1])
    return spans


def compact(result: Any, data: dict[str, Any]) -> dict[str, Any]:
    """``data``, the dump of the sample result ``result``, with each text that is already in the transcript
    replaced by a reference to it (in place, and returned)."""
    transcript = (result.transcript or ()) if "transcript" in data else ()
    first = _first_positions(transcript)
    output = data.get("output")
    text = result.output.text
    if isinstance(output, dict):
        positions = [first.get(message) for message in result.output.trajectory]
        if "trajectory" in output and positions and all(at is not None for at in positions):
            output["trajectory"] = {"transcript_spans": _spans([at for at in positions if at is not None])}
        at_text = next((i for i, m in enumerate(transcript) if text and m.content == text), None)
        if "text" in output and at_text is not None:
            output["text"] = {"transcript": at_text}
    calls = data.get("calls")
    for call, dumped in zip(result.calls, calls, strict=True) if isinstance(calls, list) else ():
        generation = dumped.get("generation") if isinstance(dumped, dict) else None
        if not isinstance(generation, dict) or "text" not in generation:
            continue
        at = first.get(call.reply())
        if at is not None:
            dumped["reply"] = at
            generation.pop("text")
            generation.pop("tool_calls", None)
        elif text and call.generation.text == text:
            generation["text"] = None
    return data


def _field(message: Any, name: str, default: Any) -> Any:
    """A field of a transcript message read from a log (a dict) or given as a record."""
    return message.get(name, default) if isinstance(message, dict) else getattr(message, name, default)


def _message_at(transcript: Sequence[Any], at: object, what: str) -> Any:
    if type(at) is not int or not 0 <= at < len(transcript):
        raise ValueError(f"{what}: {at!r} is not a message of the {len(transcript)}-message transcript")
    return transcript[at]


def restore(data: Any) -> Any:
    """A logged record's data with every reference to its transcript replaced by what it refers to."""
    if not isinstance(data, dict):
        return data
    stored = data.get("transcript")
    transcript: Sequence[Any] = stored if isinstance(stored, (list, tuple)) else ()
    output = data.get("output")
    if isinstance(output, dict):
        output = dict(output)
        if isinstance(output.get("text"), dict):
            reference = output["text"]
            if set(reference) != {"transcript"}:
                raise ValueError("output.text must be a text, or the transcript position of one")
            output["text"] = _field(_message_at(transcript, reference["transcript"], "output.text"), "content", "")
        if isinstance(output.get("trajectory"), dict):
            output["trajectory"] = _trajectory(transcript, output["trajectory"])
        data = {**data, "output": output}
    text = output.get("text") if isinstance(output, dict) else getattr(output, "text", None)
    if isinstance(data.get("calls"), (list, tuple)):
        data = {
            **data,
            "calls": [_restored_call(transcript, number, call, text) for number, call in enumerate(data["calls"])],
        }
    return data


def _restored_call(transcript: Sequence[Any], number: int, call: Any, text: object) -> Any:
    if not isinstance(call, dict) or not isinstance(call.get("generation"), dict):
        return call
    call, generation = dict(call), dict(call["generation"])
    if "reply" in call:
        message = _message_at(transcript, call.pop("reply"), f"call {number}: reply")
        generation["text"] = _field(message, "content", None) or ""
        generation["tool_calls"] = _field(message, "tool_calls", ())
    elif "text" in generation and generation["text"] is None and isinstance(text, str):
        generation["text"] = text
    call["generation"] = generation
    return call


def _trajectory(transcript: Sequence[Any], stored: dict[str, Any]) -> list[Any]:
    spans = stored.get("transcript_spans")
    if not transcript or not isinstance(spans, list) or len(stored) != 1:
        raise ValueError("output.trajectory must be messages, or transcript_spans of a logged transcript")
    messages: list[Any] = []
    for span in spans:
        valid = isinstance(span, list) and len(span) == 2 and all(type(end) is int for end in span)
        if not valid or not 0 <= span[0] < span[1] <= len(transcript):
            raise ValueError(f"output.trajectory: span {span!r} is not within the {len(transcript)}-message transcript")
        messages.extend(transcript[span[0] : span[1]])
    return messages
