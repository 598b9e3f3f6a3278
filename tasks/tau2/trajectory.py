"""A τ² episode as the run log keeps it: its turns are the sample's transcript messages, stored once.

:func:`episode_messages` writes τ²'s trajectory as chat messages in the conversation's own roles
(the agent's turns ``assistant``, the user's ``user`` with its tool calls, every tool result
``tool``, the user's stop included). They are the output's trajectory, which the log stores as
spans of the transcript the agent's and the user's requests were made on. The one thing of τ²'s
messages a chat message does not say is which tool results τ² marked as errors
(:func:`tool_errors`, logged as ``tool_errors_at``); a result's requestor is the role of the
message whose call it answers. :func:`logged_trajectory` reads τ²'s messages back from an output,
for the scorer, rescoring and replay: from its trajectory, or from ``tau2_messages`` in a log
written before (run format 2), which kept a second copy of the episode.
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from harness.api import JsonInputError, Message, Output, ToolCall, parse_json

ERRORS_KEY = "tool_errors_at"
"""``Output.data`` key: the positions in the trajectory of the tool results τ² marked as errors."""
OLD_KEY = "tau2_messages"
"""``Output.data`` key of the episode as τ²'s message dicts, in logs written before run format 3."""


def _calls(calls: list | None) -> tuple[ToolCall, ...]:
    return tuple(ToolCall(id=c.id, name=c.name, arguments=json.dumps(c.arguments)) for c in calls or [])


def episode_message(message: object) -> Message:
    """One τ² message as a chat message in its own role (the agent's and the user's views render it the same)."""
    from tau2.data_model.message import AssistantMessage, ToolMessage, UserMessage

    if isinstance(message, (AssistantMessage, UserMessage)):
        return Message(role=message.role, content=message.content, tool_calls=_calls(message.tool_calls))
    if isinstance(message, ToolMessage):
        return Message(role="tool", content=message.content, tool_call_id=message.id)
    return Message(role="system", content=getattr(message, "content", None))


def episode_messages(trajectory: Sequence[object]) -> tuple[Message, ...]:
    """τ²'s trajectory as chat messages in the conversation's own roles."""
    return tuple(episode_message(message) for message in trajectory)


def tool_errors(trajectory: Sequence[object]) -> list[int]:
    """The positions of the tool results τ² marked as errors."""
    return [index for index, message in enumerate(trajectory) if getattr(message, "error", False) is True]


def _arguments(call: ToolCall, index: int) -> dict:
    try:
        arguments = parse_json(call.arguments, f"logged message #{index}: tool call {call.name[:80]!r}")
    except JsonInputError as exc:
        raise ValueError(str(exc)) from None
    if not isinstance(arguments, dict):
        raise ValueError(f"logged message #{index}: tool call {call.name[:80]!r}: arguments are not a JSON object")
    return arguments


def tau2_messages(messages: Sequence[Message], errors: Sequence[int] = ()) -> list:
    """τ²'s messages from chat messages in the conversation's roles; ValueError naming the first that cannot be."""
    from tau2.data_model.message import AssistantMessage, SystemMessage, ToolMessage, UserMessage
    from tau2.data_model.message import ToolCall as Tau2ToolCall

    failed = set(errors)
    out: list = []
    speaker: str | None = None
    for index, message in enumerate(messages):
        if message.role == "tool":
            if speaker is None or message.tool_call_id is None:
                raise ValueError(f"logged message #{index}: a tool result that answers no tool call")
            out.append(
                ToolMessage(
                    id=message.tool_call_id,
                    role="tool",
                    content=message.content,
                    requestor=speaker,
                    error=index in failed,
                )
            )
            continue
        if message.role == "system":
            out.append(SystemMessage(role="system", content=message.content))
            continue
        speaker = message.role
        calls = [
            Tau2ToolCall(id=call.id, name=call.name, arguments=_arguments(call, index), requestor=speaker)
            for call in message.tool_calls
        ]
        kind = UserMessage if speaker == "user" else AssistantMessage
        out.append(kind(role=speaker, content=message.content, tool_calls=calls or None))
    return out


def logged_trajectory(output: Output) -> list:
    """The episode's τ² messages as logged in ``output``; ValueError when they cannot be read."""
    if OLD_KEY in output.data:
        return load_trajectory(output.data[OLD_KEY])
    errors = output.data.get(ERRORS_KEY, [])
    if not isinstance(errors, list) or not all(type(i) is int for i in errors):
        raise ValueError(f"{ERRORS_KEY} is not a list of positions")
    return tau2_messages(output.trajectory, errors)


def load_trajectory(data: object) -> list:
    """τ² messages from the dicts a log written before run format 3 kept; ValueError naming the first bad one."""
    from pydantic import TypeAdapter, ValidationError
    from tau2.data_model.message import AssistantMessage, SystemMessage, ToolMessage, UserMessage

    if not isinstance(data, list):
        raise ValueError("the logged trajectory is not a list")
    kinds = {"assistant": AssistantMessage, "user": UserMessage, "tool": ToolMessage, "system": SystemMessage}
    out = []
    for index, item in enumerate(data):
        kind = kinds.get(str(item.get("role"))) if isinstance(item, dict) else None
        if kind is None:
            raise ValueError(f"logged message #{index} has no known role")
        try:
            out.append(TypeAdapter(kind).validate_python(item))
        except ValidationError as exc:
            raise ValueError(f"logged message #{index}: {str(exc)[:200]}") from None
    return out
