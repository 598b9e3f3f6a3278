"""A streamed chat completion (server-sent events) read back into the body of an unstreamed one.

``-M stream=true`` makes the ``openai-compatible/`` client ask for ``stream: true`` (with
``stream_options.include_usage``, so the last event carries the usage) to measure the time to the
first token. The events' deltas are joined into one ``choices[0].message`` (content, tool calls by
index, logprobs), the last ``finish_reason``, ``usage`` and any other top-level field (llama.cpp's
``timings``, a diffusion server's ``steps``) kept as the last event sent them, so the same parser
reads both shapes.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from harness.errors import AdapterError, TransientError

STREAM_PARAMS = {"stream": True, "stream_options": {"include_usage": True}}


def _object(value: object) -> dict[str, Any]:
    """``value`` when it is a JSON object, else an empty one."""
    return value if isinstance(value, dict) else {}


@dataclass
class StreamedReply:
    """The events of one streamed reply, joined; ``ttft_s`` and ``deltas`` count content only."""

    started: float
    ttft_s: float | None = None
    deltas: int = 0
    content: list[str] = field(default_factory=list)
    tool_calls: dict[int, dict[str, Any]] = field(default_factory=dict)
    logprobs: list[Any] = field(default_factory=list)
    finish_reason: str | None = None
    top: dict[str, Any] = field(default_factory=dict)

    def take(self, event: dict[str, Any]) -> None:
        """Join one event's fields into the reply."""
        for key, value in event.items():
            if key != "choices" and value is not None:
                self.top[key] = value
        choices = event.get("choices")
        if not isinstance(choices, list) or not choices or not isinstance(choices[0], dict):
            return
        choice = choices[0]
        delta = _object(choice.get("delta"))
        text = delta.get("content")
        if isinstance(text, str) and text:
            self.content.append(text)
            self.deltas += 1
        calls = delta.get("tool_calls")
        if isinstance(calls, list):
            for number, call in enumerate(calls):
                if isinstance(call, dict):
                    self._join_call(call.get("index", number), call)
        if (text or calls) and self.ttft_s is None:
            self.ttft_s = time.perf_counter() - self.started
        logprobs = choice.get("logprobs")
        if isinstance(logprobs, dict) and isinstance(logprobs.get("content"), list):
            self.logprobs.extend(logprobs["content"])
        if choice.get("finish_reason") is not None:
            self.finish_reason = choice["finish_reason"]

    def _join_call(self, index: object, call: dict[str, Any]) -> None:
        slot = self.tool_calls.setdefault(
            index if isinstance(index, int) else len(self.tool_calls),
            {"id": None, "type": "function", "function": {"name": None, "arguments": ""}},
        )
        slot["id"] = call.get("id") or slot["id"]
        function = _object(call.get("function"))
        slot["function"]["name"] = function.get("name") or slot["function"]["name"]
        if isinstance(function.get("arguments"), str):
            slot["function"]["arguments"] += function["arguments"]

    def body(self) -> dict[str, Any]:
        """The reply as an unstreamed chat-completion body."""
        message: dict[str, Any] = {"role": "assistant", "content": "".join(self.content) if self.content else None}
        if self.tool_calls:
            message["tool_calls"] = [self.tool_calls[index] for index in sorted(self.tool_calls)]
        choice: dict[str, Any] = {"index": 0, "message": message, "finish_reason": self.finish_reason}
        if self.logprobs:
            choice["logprobs"] = {"content": self.logprobs}
        return {**self.top, "choices": [choice] if self.content or self.tool_calls or self.finish_reason else []}


async def read_event_stream(response: Any, cap: int, source: str, started: float) -> StreamedReply:
    """Read the server-sent events of ``response`` (at most ``cap`` bytes) into a :class:`StreamedReply`.

    An event that is not JSON fails the call as a transient error (a stream cut short); a longer stream
    than ``cap`` fails it for good, as :func:`~harness.adapters.openai_compatible.read_capped` does.
    """
    reply = StreamedReply(started=started)
    size = 0
    try:
        async for raw in response.content:
            size += len(raw)
            if size > cap:
                raise AdapterError(f"streamed response from {source} exceeds the {cap:,}-byte cap")
            line = raw.decode("utf-8", errors="replace").strip()
            if not line.startswith("data:"):
                continue
            data = line[5:].strip()
            if data == "[DONE]":
                break
            try:
                event = json.loads(data)
            except ValueError:
                raise TransientError(f"malformed event in the stream from {source}: {data[:200]}") from None
            if isinstance(event, dict):
                reply.take(event)
    except ValueError as exc:  # aiohttp: a line longer than its buffer
        raise AdapterError(f"streamed response from {source} has an unreadable line: {exc}") from None
    return reply
