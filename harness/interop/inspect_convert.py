"""Conversions between the harness's records and inspect-ai's model API types.

Messages, tools, tool choice and generation parameters go to inspect; a ``ModelOutput``
comes back as a ``Generation``. Tool-call arguments stay raw JSON text on our side,
as our environments parse (and reject) them themselves.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Literal

from harness.errors import ConfigError
from harness.json_input import JsonInputError, parse_json
from harness.task import GenerationSettings
from harness.types import GenerateRequest, Generation, JsonDict, Message, TokenLogprob, ToolCall, Usage

if TYPE_CHECKING:
    from inspect_ai.model import ChatMessage, GenerateConfig, ModelOutput
    from inspect_ai.tool import ToolChoice, ToolInfo

FINISH_REASONS = {
    "stop": "stop",
    "max_tokens": "length",
    "model_length": "length",
    "tool_calls": "tool_calls",
    "content_filter": "content_filter",
}


def _arguments(raw: str) -> dict[str, Any]:
    """Tool-call arguments as a dict for inspect; text that is not a JSON object is kept under ``_raw``."""
    try:
        parsed = parse_json(raw or "{}", "tool-call arguments")
    except JsonInputError:
        return {"_raw": raw}
    return parsed if isinstance(parsed, dict) else {"_raw": raw}


def _raw_arguments(arguments: dict[str, Any]) -> str:
    """The raw JSON text of inspect tool-call arguments (inverse of ``_arguments``)."""
    if set(arguments) == {"_raw"} and isinstance(arguments["_raw"], str):
        return arguments["_raw"]
    return json.dumps(arguments, ensure_ascii=False)


def to_inspect_messages(messages: tuple[Message, ...]) -> list[ChatMessage]:
    """Our chat messages as inspect chat messages (tool names are recovered from the calls)."""
    from inspect_ai.model import ChatMessageAssistant, ChatMessageSystem, ChatMessageTool, ChatMessageUser
    from inspect_ai.tool import ToolCall as InspectToolCall

    names: dict[str, str] = {}
    converted: list[ChatMessage] = []
    for message in messages:
        content = message.content or ""
        if message.role == "system":
            converted.append(ChatMessageSystem(content=content))
        elif message.role == "user":
            converted.append(ChatMessageUser(content=content))
        elif message.role == "assistant":
            calls = [
                InspectToolCall(id=c.id, function=c.name, arguments=_arguments(c.arguments)) for c in message.tool_calls
            ]
            names.update({c.id: c.name for c in message.tool_calls})
            converted.append(ChatMessageAssistant(content=content, tool_calls=calls or None))
        else:
            call_id = message.tool_call_id or ""
            converted.append(
                ChatMessageTool(content=content, tool_call_id=call_id, function=message.name or names.get(call_id))
            )
    return converted


def from_inspect_messages(messages: list[ChatMessage]) -> tuple[Message, ...]:
    """Inspect chat messages as ours (text content only)."""
    converted: list[Message] = []
    for message in messages:
        text = message.text or None
        if message.role == "assistant":
            calls = tuple(
                ToolCall(id=c.id, name=c.function, arguments=_raw_arguments(c.arguments))
                for c in (message.tool_calls or [])
            )
            converted.append(Message(role="assistant", content=text, tool_calls=calls))
        elif message.role == "tool":
            converted.append(
                Message(
                    role="tool",
                    content=text or "",
                    tool_call_id=message.tool_call_id,
                    name=message.function,
                )
            )
        else:
            converted.append(Message(role=message.role, content=text or ""))
    return tuple(converted)


def to_inspect_tools(tools: tuple[JsonDict, ...]) -> list[ToolInfo]:
    """OpenAI-style function tools (``{"type": "function", "function": {...}}``) as inspect ToolInfo."""
    from inspect_ai.tool import ToolInfo, ToolParams

    infos = []
    for tool in tools:
        function = tool.get("function", tool) if isinstance(tool, dict) else None
        if not isinstance(function, dict) or not isinstance(function.get("name"), str):
            raise ConfigError(f"tool spec is not an OpenAI function tool: {str(tool)[:200]}")
        parameters = dict(function.get("parameters") or {"type": "object", "properties": {}})
        parameters.setdefault("additionalProperties", False)
        infos.append(
            ToolInfo(
                name=function["name"],
                description=str(function.get("description") or ""),
                parameters=ToolParams.model_validate(parameters),
            )
        )
    return infos


def to_inspect_tool_choice(choice: str | JsonDict | None) -> ToolChoice | None:
    """OpenAI ``tool_choice`` ("auto", "none", "required" or a named function) as inspect's."""
    from inspect_ai.tool import ToolFunction

    if choice is None:
        return None
    if isinstance(choice, dict):
        name = (choice.get("function") or {}).get("name")
        if not isinstance(name, str):
            raise ConfigError(f"tool_choice names no function: {choice}")
        return ToolFunction(name=name)
    mapping: dict[str, Literal["auto", "none", "any"]] = {"auto": "auto", "none": "none", "required": "any"}
    if choice not in mapping:
        raise ConfigError(f"unknown tool_choice {choice!r}; expected auto, none, required or a function")
    return mapping[choice]


def to_inspect_config(request: GenerateRequest, base: GenerationSettings | None = None) -> GenerateConfig:
    """Generation parameters of ``request`` for inspect.

    With ``base``, only the parameters that differ from it are sent, so that what the
    inspect eval configured (its task config merged with ``--temperature`` and friends)
    applies to everything a solver did not override itself.
    """
    from inspect_ai.model import GenerateConfig

    def changed(value: Any, default: Any) -> bool:
        return base is None or value != default

    fields: dict[str, Any] = {}
    pairs = (
        ("max_tokens", "max_tokens"),
        ("temperature", "temperature"),
        ("top_p", "top_p"),
        ("seed", "seed"),
        ("reasoning_budget", "reasoning_tokens"),
    )
    for ours, theirs in pairs:
        value = getattr(request, ours)
        if value is not None and changed(value, getattr(base, ours, None)):
            fields[theirs] = value
    if request.stop and changed(request.stop, getattr(base, "stop", ())):
        fields["stop_seqs"] = list(request.stop)
    if request.n != 1:
        fields["num_choices"] = request.n
    if request.logprobs:
        fields["logprobs"] = True
        if request.top_logprobs is not None:
            fields["top_logprobs"] = request.top_logprobs
    return GenerateConfig(**fields)


def _usage(output: ModelOutput) -> Usage:
    usage = output.usage
    if usage is None:
        return Usage()
    return Usage(
        input_tokens=usage.input_tokens,
        output_tokens=usage.output_tokens,
        reasoning_tokens=usage.reasoning_tokens or 0,
        cached_tokens=usage.input_tokens_cache_read or 0,
    )


def from_inspect_output(output: ModelOutput, latency_s: float) -> Generation:
    """An inspect ModelOutput as a Generation (first choice; the others' texts in ``alternatives``)."""
    if output.error:
        from harness.errors import AdapterError

        raise AdapterError(f"inspect model error: {output.error}")
    if not output.choices:
        return Generation(text=output.completion, usage=_usage(output), latency_s=latency_s, model=output.model)
    first = output.choices[0]
    message = first.message
    calls = tuple(
        ToolCall(id=c.id, name=c.function, arguments=_raw_arguments(c.arguments)) for c in (message.tool_calls or [])
    )
    logprobs = None
    if first.logprobs is not None:
        logprobs = tuple(TokenLogprob(token=lp.token, logprob=lp.logprob) for lp in first.logprobs.content)
    total_cost = output.usage.total_cost if output.usage is not None else None
    return Generation(
        text=message.text,
        tool_calls=calls,
        finish_reason=FINISH_REASONS.get(first.stop_reason, first.stop_reason),
        usage=_usage(output),
        cost_usd=total_cost,
        latency_s=output.time if output.time is not None else latency_s,
        logprobs=logprobs,
        alternatives=tuple(choice.message.text for choice in output.choices[1:]),
        model=output.model or None,
    )
