"""Conversions between our records and inspect-ai's: messages with tool calls, tools, tool choice, config."""

from __future__ import annotations

import pytest

pytest.importorskip("inspect_ai")

from inspect_ai.tool import ToolFunction

from harness.errors import ConfigError
from harness.interop.inspect_convert import (
    from_inspect_messages,
    to_inspect_config,
    to_inspect_messages,
    to_inspect_tool_choice,
    to_inspect_tools,
)
from harness.task import GenerationSettings
from harness.types import GenerateRequest, Message, ToolCall

CONVERSATION = (
    Message(role="system", content="policy"),
    Message(role="user", content="hi"),
    Message(
        role="assistant",
        content=None,
        tool_calls=(
            ToolCall(id="c1", name="lookup", arguments='{"id": 7}'),
            ToolCall(id="c2", name="lookup", arguments="{not json"),
        ),
    ),
    Message(role="tool", content='{"ok": true}', tool_call_id="c1"),
    Message(role="tool", content="error: bad arguments", tool_call_id="c2"),
    Message(role="assistant", content="done"),
)


def test_messages_round_trip_keeps_raw_tool_arguments_and_names() -> None:
    converted = to_inspect_messages(CONVERSATION)
    assert [m.role for m in converted] == ["system", "user", "assistant", "tool", "tool", "assistant"]
    assert converted[3].function == "lookup" and converted[3].tool_call_id == "c1"
    back = from_inspect_messages(converted)
    assert back[2].tool_calls == CONVERSATION[2].tool_calls
    assert back[3] == CONVERSATION[3].model_copy(update={"name": "lookup"})
    assert [m.content for m in back] == ["policy", "hi", None, '{"ok": true}', "error: bad arguments", "done"]


def test_tools_and_tool_choice() -> None:
    spec = {
        "type": "function",
        "function": {
            "name": "lookup",
            "description": "find",
            "parameters": {"type": "object", "properties": {"id": {"type": "integer"}}, "required": ["id"]},
        },
    }
    (info,) = to_inspect_tools((spec,))
    assert info.name == "lookup" and info.parameters.required == ["id"]
    assert info.parameters.properties["id"].type == "integer"
    assert to_inspect_tool_choice("required") == "any"
    assert to_inspect_tool_choice({"type": "function", "function": {"name": "lookup"}}) == ToolFunction(name="lookup")
    for bad in ("sometimes", {"type": "function"}):
        with pytest.raises(ConfigError):
            to_inspect_tool_choice(bad)
    with pytest.raises(ConfigError):
        to_inspect_tools(({"type": "function", "function": {"description": "no name"}},))


def test_config_sends_only_what_differs_from_the_eval_defaults() -> None:
    base = GenerationSettings(max_tokens=1024, temperature=0.0)
    request = GenerateRequest(
        messages=CONVERSATION[:2], max_tokens=1024, temperature=0.0, stop=("###",), n=2, logprobs=True, top_logprobs=3
    )
    config = to_inspect_config(request, base)
    assert config.max_tokens is None and config.temperature is None
    assert config.stop_seqs == ["###"] and config.num_choices == 2 and config.logprobs and config.top_logprobs == 3
    full = to_inspect_config(request)
    assert full.max_tokens == 1024 and full.temperature == 0.0
