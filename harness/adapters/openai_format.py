"""Translation between the harness's records and OpenAI's chat-completions JSON.

Shared by the lean ``openai-compatible/`` client and the litellm adapter, whose
responses have the same shape once dumped to a dict.
"""

from __future__ import annotations

from typing import Any

from harness.errors import AdapterError
from harness.types import Generation, GenerateRequest, Message, TokenLogprob, ToolCall, Usage


def message_to_openai(message: Message) -> dict[str, Any]:
    """One message as an OpenAI chat message dict."""
    out: dict[str, Any] = {"role": message.role, "content": message.content}
    if message.tool_calls:
        out["tool_calls"] = [
            {"id": call.id, "type": "function", "function": {"name": call.name, "arguments": call.arguments}}
            for call in message.tool_calls
        ]
    if message.tool_call_id is not None:
        out["tool_call_id"] = message.tool_call_id
    if message.name is not None:
        out["name"] = message.name
    return out


def request_to_openai(request: GenerateRequest) -> dict[str, Any]:
    """The request's parameters as chat-completions keyword arguments (without ``model``)."""
    payload: dict[str, Any] = {"messages": [message_to_openai(m) for m in request.messages]}
    optional = {
        "max_tokens": request.max_tokens,
        "temperature": request.temperature,
        "top_p": request.top_p,
        "seed": request.seed,
        "tool_choice": request.tool_choice,
        "top_logprobs": request.top_logprobs,
    }
    payload.update({key: value for key, value in optional.items() if value is not None})
    if request.n != 1:
        payload["n"] = request.n
    if request.stop:
        payload["stop"] = list(request.stop)
    if request.tools:
        payload["tools"] = [dict(tool) for tool in request.tools]
    if request.logprobs:
        payload["logprobs"] = True
    payload.update(request.extra)
    return payload


def _usage(raw: dict[str, Any] | None) -> Usage:
    raw = raw or {}
    completion_details = raw.get("completion_tokens_details") or {}
    prompt_details = raw.get("prompt_tokens_details") or {}
    return Usage(
        input_tokens=int(raw.get("prompt_tokens") or 0),
        output_tokens=int(raw.get("completion_tokens") or 0),
        reasoning_tokens=int(completion_details.get("reasoning_tokens") or 0),
        cached_tokens=int(prompt_details.get("cached_tokens") or 0),
    )


def _tool_calls(raw: list[dict[str, Any]] | None) -> tuple[ToolCall, ...]:
    calls = []
    for index, call in enumerate(raw or []):
        function = call.get("function") or {}
        name = function.get("name")
        if not isinstance(name, str):
            raise AdapterError(f"malformed response: tool call {index} has no function name")
        arguments = function.get("arguments")
        calls.append(ToolCall(id=str(call.get("id") or f"call_{index}"), name=name,
                              arguments=arguments if isinstance(arguments, str) else "{}"))
    return tuple(calls)


def _logprobs(raw: dict[str, Any] | None) -> tuple[TokenLogprob, ...] | None:
    if not raw or not raw.get("content"):
        return None
    return tuple(TokenLogprob(token=str(item["token"]), logprob=float(item["logprob"])) for item in raw["content"])


def generation_from_openai(body: Any, latency_s: float = 0.0, cost_usd: float | None = None) -> Generation:
    """A Generation from a chat-completions response body; AdapterError when it is malformed."""
    if not isinstance(body, dict):
        raise AdapterError(f"malformed response: expected a JSON object, got {type(body).__name__}")
    choices = body.get("choices")
    if not isinstance(choices, list) or not choices:
        error = body.get("error")
        detail = f": {error}" if error else ""
        raise AdapterError(f"malformed response: no 'choices'{detail}")
    try:
        first = choices[0]
        message = first.get("message") or {}
        content = message.get("content")
        return Generation(
            text=content if isinstance(content, str) else "",
            tool_calls=_tool_calls(message.get("tool_calls")),
            finish_reason=first.get("finish_reason"),
            usage=_usage(body.get("usage")),
            cost_usd=cost_usd,
            latency_s=latency_s,
            logprobs=_logprobs(first.get("logprobs")),
            alternatives=tuple(
                str((c.get("message") or {}).get("content") or "") for c in choices[1:]
            ),
            model=body.get("model"),
        )
    except (AttributeError, TypeError, KeyError, ValueError) as exc:
        raise AdapterError(f"malformed response: {exc}") from None
