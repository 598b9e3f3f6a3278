"""OpenAI request and response JSON for ``frontier serve``: parse what clients send, shape what they read."""

from __future__ import annotations

import time
import uuid
from typing import Any, Literal

from pydantic import ValidationError

from harness.types import GenerateRequest, Generation, Message, ToolCall

ROLES: dict[str, Literal["system", "user", "assistant", "tool"]] = {
    "system": "system",
    "user": "user",
    "assistant": "assistant",
    "tool": "tool",
    "developer": "system",
    "function": "tool",
}
LOCAL_EXTRAS = ("top_k", "min_p", "repeat_penalty")
MAX_CHOICES = 16


class BadRequest(ValueError):
    """The client's request is malformed; answered with HTTP 400 and the message."""


def _text_content(value: Any, where: str) -> str | None:
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, list):
        parts = []
        for part in value:
            if not isinstance(part, dict) or part.get("type") not in ("text", "input_text"):
                kind = part.get("type") if isinstance(part, dict) else type(part).__name__
                raise BadRequest(f"{where}: only text content is supported, got a {kind!r} part")
            parts.append(str(part.get("text", "")))
        return "".join(parts)
    raise BadRequest(f"{where}: content must be a string or a list of text parts")


def _tool_calls(raw: Any, where: str) -> tuple[ToolCall, ...]:
    if raw is None:
        return ()
    if not isinstance(raw, list):
        raise BadRequest(f"{where}: tool_calls must be a list")
    calls = []
    for index, call in enumerate(raw):
        function = call.get("function") if isinstance(call, dict) else None
        if not isinstance(function, dict) or not isinstance(function.get("name"), str):
            raise BadRequest(f"{where}: tool call {index} needs function.name")
        arguments = function.get("arguments", "{}")
        calls.append(
            ToolCall(
                id=str(call.get("id") or f"call_{index}"),
                name=function["name"],
                arguments=arguments if isinstance(arguments, str) else "{}",
            )
        )
    return tuple(calls)


def parse_messages(raw: Any) -> tuple[Message, ...]:
    """Chat messages from a request body's ``messages``; BadRequest naming the first problem."""
    if not isinstance(raw, list) or not raw:
        raise BadRequest("'messages' must be a non-empty list")
    messages = []
    for index, item in enumerate(raw):
        where = f"messages[{index}]"
        if not isinstance(item, dict):
            raise BadRequest(f"{where} must be an object")
        given = item.get("role")
        role = ROLES.get(given) if isinstance(given, str) else None
        if role is None:
            raise BadRequest(f"{where}: unknown role {given!r}")
        name = item.get("name")
        messages.append(
            Message(
                role=role,
                content=_text_content(item.get("content"), where),
                tool_calls=_tool_calls(item.get("tool_calls"), where),
                tool_call_id=item.get("tool_call_id"),
                name=name if isinstance(name, str) else None,
            )
        )
    return tuple(messages)


def _stop(raw: Any) -> tuple[str, ...]:
    if raw is None:
        return ()
    if isinstance(raw, str):
        return (raw,)
    if isinstance(raw, list) and all(isinstance(s, str) for s in raw):
        return tuple(raw)
    raise BadRequest("'stop' must be a string or a list of strings")


def int_in(body: dict[str, Any], key: str, low: int, high: int) -> int | None:
    """``body[key]`` when it is an integer in ``[low, high]``, None when absent; BadRequest otherwise."""
    value = body.get(key)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadRequest(f"'{key}' must be an integer from {low} to {high}, got {value!r}")
    return value


def generation_request(body: dict[str, Any], messages: tuple[Message, ...]) -> GenerateRequest:
    """A GenerateRequest from a chat or completions body's parameters and ``messages``."""
    max_tokens = body.get("max_completion_tokens", body.get("max_tokens"))
    extra = {key: body[key] for key in LOCAL_EXTRAS if body.get(key) is not None}
    tools = body.get("tools") or ()
    if not isinstance(tools, (list, tuple)) or not all(isinstance(t, dict) for t in tools):
        raise BadRequest("'tools' must be a list of objects")
    try:
        return GenerateRequest(
            messages=messages,
            max_tokens=max_tokens,
            temperature=body.get("temperature"),
            top_p=body.get("top_p"),
            n=int_in(body, "n", 1, MAX_CHOICES) or 1,
            stop=_stop(body.get("stop")),
            seed=body.get("seed"),
            tools=tuple(tools),
            tool_choice=body.get("tool_choice"),
            logprobs=bool(body.get("logprobs")),
            top_logprobs=int_in(body, "top_logprobs", 0, 20),
            extra=extra,
        )
    except ValidationError as exc:
        first = exc.errors()[0]
        raise BadRequest(f"'{'.'.join(str(p) for p in first['loc'])}': {first['msg']}") from None


def _message_json(generation: Generation) -> dict[str, Any]:
    message: dict[str, Any] = {
        "role": "assistant",
        "content": generation.text if not generation.tool_calls else (generation.text or None),
    }
    if generation.tool_calls:
        message["tool_calls"] = [
            {"id": c.id, "type": "function", "function": {"name": c.name, "arguments": c.arguments}}
            for c in generation.tool_calls
        ]
    return message


def chat_response(generation: Generation, model: str, request: GenerateRequest) -> dict[str, Any]:
    """A ``chat.completion`` object: the generation and its alternatives as choices."""
    first: dict[str, Any] = {
        "index": 0,
        "message": _message_json(generation),
        "finish_reason": generation.finish_reason or "stop",
    }
    if request.logprobs:
        first["logprobs"] = {
            "content": [
                {"token": t.token, "logprob": t.logprob, "bytes": list(t.token.encode()), "top_logprobs": []}
                for t in generation.logprobs or ()
            ]
        }
    choices = [first] + [
        {"index": i, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}
        for i, text in enumerate(generation.alternatives, start=1)
    ]
    return {
        "id": f"chatcmpl-{uuid.uuid4().hex[:24]}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": choices,
        "usage": usage_json(generation.usage.input_tokens, generation.usage.output_tokens),
    }


def chat_stream_chunks(response: dict[str, Any], include_usage: bool) -> list[dict[str, Any]]:
    """The ``chat.completion.chunk`` events that stream ``response`` (one content delta per choice)."""
    base = {key: response[key] for key in ("id", "created", "model")} | {"object": "chat.completion.chunk"}
    chunks = []
    for choice in response["choices"]:
        delta = dict(choice["message"])
        if delta.get("tool_calls"):
            delta["tool_calls"] = [dict(call, index=i) for i, call in enumerate(delta["tool_calls"])]
        chunks.append(base | {"choices": [{"index": choice["index"], "delta": delta, "finish_reason": None}]})
        chunks.append(
            base | {"choices": [{"index": choice["index"], "delta": {}, "finish_reason": choice["finish_reason"]}]}
        )
    if include_usage:
        chunks.append(base | {"choices": [], "usage": response["usage"]})
    return chunks


def usage_json(prompt_tokens: int, completion_tokens: int) -> dict[str, int]:
    """OpenAI's usage object."""
    return {
        "prompt_tokens": prompt_tokens,
        "completion_tokens": completion_tokens,
        "total_tokens": prompt_tokens + completion_tokens,
    }


def text_offsets(tokens: list[str], start: int) -> list[int]:
    """Character offsets of ``tokens`` in the text, beginning at ``start``."""
    offsets, position = [], start
    for token in tokens:
        offsets.append(position)
        position += len(token)
    return offsets
