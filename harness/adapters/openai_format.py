"""Translation between the harness's records and OpenAI's chat-completions JSON.

Shared by the lean ``openai-compatible/`` client and the litellm adapter, whose
responses have the same shape once dumped to a dict.
"""

from __future__ import annotations

import json
from typing import Any

from harness.adapters.server_timing import timing_of
from harness.errors import AdapterError
from harness.types import GenerateRequest, Generation, Message, TokenLogprob, ToolCall, Usage


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


def _usage(raw: object) -> Usage:
    """The reported usage as sent: a count that is not a whole number in range (``-100000000``, ``1e300``)
    makes the call's usage unknown (:class:`~harness.types.Usage`), never a count."""
    if raw is None:
        return Usage()
    if not isinstance(raw, dict):
        return Usage(unknown=True)
    completion_details = raw.get("completion_tokens_details") or {}
    prompt_details = raw.get("prompt_tokens_details") or {}
    if not isinstance(completion_details, dict) or not isinstance(prompt_details, dict):
        return Usage(unknown=True)
    return Usage.model_validate(
        {
            "input_tokens": raw.get("prompt_tokens"),
            "output_tokens": raw.get("completion_tokens"),
            "reasoning_tokens": completion_details.get("reasoning_tokens"),
            "cached_tokens": prompt_details.get("cached_tokens"),
        }
    )


def tool_arguments_text(arguments: object) -> str:
    """A tool call's arguments as JSON text, whatever shape the server sent them in.

    A string is kept exactly as sent (the tool parses it and reports bad JSON); an object
    or any other JSON value that some servers and proxies send is serialised canonically
    (sorted keys, no spaces), so the tool runs with, and the log records, what the model
    asked for. Only absent arguments (``null`` or missing) become ``{}``.
    """
    if isinstance(arguments, str):
        return arguments
    if arguments is None:
        return "{}"
    try:
        return json.dumps(arguments, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError) as exc:
        raise AdapterError(f"malformed response: tool call arguments are not JSON ({exc})") from None


def _tool_calls(raw: list[dict[str, Any]] | None) -> tuple[ToolCall, ...]:
    calls = []
    for index, call in enumerate(raw or []):
        function = call.get("function") or {}
        name = function.get("name")
        if not isinstance(name, str):
            raise AdapterError(f"malformed response: tool call {index} has no function name")
        calls.append(
            ToolCall(
                id=str(call.get("id") or f"call_{index}"),
                name=name,
                arguments=tool_arguments_text(function.get("arguments")),
            )
        )
    return tuple(calls)


def _logprobs(raw: dict[str, Any] | None) -> tuple[TokenLogprob, ...] | None:
    if not raw or not raw.get("content"):
        return None
    return tuple(TokenLogprob(token=str(item["token"]), logprob=float(item["logprob"])) for item in raw["content"])


def generation_from_openai(
    body: Any,
    latency_s: float = 0.0,
    cost_usd: float | None = None,
    ttft_s: float | None = None,
    text_tokens: int | None = None,
) -> Generation:
    """A Generation from a chat-completions response body; AdapterError when it is malformed.

    Its ``timing`` holds what the server reported of the call's time (:mod:`harness.adapters.server_timing`)
    and, for a streamed reply, ``ttft_s`` and the ``text_tokens`` its content deltas counted.
    """
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
            alternatives=tuple(str((c.get("message") or {}).get("content") or "") for c in choices[1:]),
            model=body.get("model"),
            timing=timing_of(body, ttft_s, text_tokens),
        )
    except (AttributeError, TypeError, KeyError, ValueError) as exc:
        raise AdapterError(f"malformed response: {exc}") from None


MAX_CHARS_PER_TOKEN = 16


def enforce_max_tokens(generation: Generation, max_tokens: int | None) -> Generation:
    """The generation held to ``max_tokens`` where the server ignored it, cut and marked ``finish_reason: length``.

    When the server reports more completion tokens than asked for (for one choice), the
    text keeps the same share of its characters; otherwise a text longer than
    ``MAX_CHARS_PER_TOKEN`` characters a token is cut there. The reported usage is kept
    (it is what was billed).
    """
    if not max_tokens or max_tokens < 1 or not generation.text:
        return generation
    # With several choices the usage counts all of them, so only the per-text character bound applies.
    reported = 0 if generation.alternatives else generation.usage.output_tokens - generation.usage.reasoning_tokens
    text = generation.text
    if reported > max_tokens:
        keep = len(text) * max_tokens // reported
    elif len(text) > max_tokens * MAX_CHARS_PER_TOKEN:
        keep = max_tokens * MAX_CHARS_PER_TOKEN
    else:
        return generation
    update: dict[str, Any] = {"text": text[:keep], "finish_reason": "length"}
    if generation.timing is not None and generation.timing.text_tokens is not None:
        update["timing"] = generation.timing.model_copy(
            update={"text_tokens": min(generation.timing.text_tokens, max_tokens)}
        )
    return generation.model_copy(update=update)
