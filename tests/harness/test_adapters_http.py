"""The litellm and openai-compatible adapters against the loopback server, over real HTTP."""

from __future__ import annotations

import asyncio
import json

import pytest

from harness.adapters import resolve_adapter
from harness.errors import AdapterError, ConfigError, TransientError
from harness.testing.openai_server import FaultPlan, OpenAIServer, Reply
from harness.types import GenerateRequest, Message

TOOL = {
    "type": "function",
    "function": {
        "name": "get_weather",
        "description": "weather in a city",
        "parameters": {"type": "object", "properties": {"city": {"type": "string"}}},
    },
}


def _tool_responder(body: dict) -> Reply:
    if body.get("tools"):
        return Reply(tool_calls=[{"id": "call_1", "name": "get_weather", "arguments": '{"city": "Paris"}'}])
    return Reply(text="plain answer with four words")


def _request(**kwargs) -> GenerateRequest:
    return GenerateRequest(
        messages=(Message(role="system", content="be brief"), Message(role="user", content="hello there")), **kwargs
    )


@pytest.fixture
def tool_server():
    with OpenAIServer(_tool_responder) as server:
        yield server


@pytest.mark.slow
@pytest.mark.parametrize("prefix", ["openai-compatible/test-model@", "openai/test-model@"])
def test_text_usage_and_parameters_reach_the_server(tool_server, prefix) -> None:
    adapter = resolve_adapter(prefix + tool_server.base_url)
    request = _request(max_tokens=7, temperature=0.0, top_p=0.9, stop=("END",), seed=11, logprobs=True, top_logprobs=2)
    generation = asyncio.run(_generate_and_close(adapter, request))
    assert generation.text == "plain answer with four words"
    assert generation.usage.input_tokens == 4 and generation.usage.output_tokens == 5
    assert generation.logprobs is not None and len(generation.logprobs) == 5
    sent = tool_server.requests[-1]
    assert sent["max_tokens"] == 7 and sent["temperature"] == 0.0 and sent["top_p"] == 0.9
    assert sent["stop"] == ["END"] and sent["seed"] == 11 and sent["logprobs"] is True
    assert [m["role"] for m in sent["messages"]] == ["system", "user"]


@pytest.mark.slow
@pytest.mark.parametrize("prefix", ["openai-compatible/test-model@", "openai/test-model@"])
def test_tool_calls_round_trip(tool_server, prefix) -> None:
    adapter = resolve_adapter(prefix + tool_server.base_url)
    generation = asyncio.run(_generate_and_close(adapter, _request(tools=(TOOL,), tool_choice="auto")))
    assert generation.tool_calls[0].name == "get_weather"
    assert json.loads(generation.tool_calls[0].arguments) == {"city": "Paris"}
    assert generation.finish_reason == "tool_calls"
    sent = tool_server.requests[-1]
    assert sent["tools"][0]["function"]["name"] == "get_weather" and sent["tool_choice"] == "auto"


def test_litellm_cost_is_unknown_for_an_unpriced_model_and_known_for_a_priced_one(tool_server) -> None:
    unpriced = asyncio.run(
        _generate_and_close(resolve_adapter("openai/no-such-model-xyz@" + tool_server.base_url), _request())
    )
    assert unpriced.cost_usd is None
    priced = asyncio.run(_generate_and_close(resolve_adapter("openai/gpt-4o-mini@" + tool_server.base_url), _request()))
    assert priced.cost_usd is not None and priced.cost_usd > 0


@pytest.mark.parametrize(
    "fault,expected",
    [
        ("429", TransientError),
        ("500", TransientError),
        ("truncated", TransientError),
        ("malformed", TransientError),
        ("drop", TransientError),
    ],
)
@pytest.mark.parametrize("prefix", ["openai-compatible/test-model@", "openai/test-model@"])
def test_faults_map_to_transient_errors(fault, expected, prefix) -> None:
    with OpenAIServer(faults=FaultPlan(schedule={0: fault})) as server:
        adapter = resolve_adapter(prefix + server.base_url)
        with pytest.raises(expected):
            asyncio.run(_generate_and_close(adapter, _request()))


def test_a_response_without_choices_is_a_permanent_error() -> None:
    from aiohttp import web

    class NoChoices(OpenAIServer):
        async def _handle_chat(self, request):
            return web.json_response({"id": "x", "object": "chat.completion"})

    with NoChoices() as server:
        with pytest.raises(AdapterError, match="no 'choices'") as info:
            asyncio.run(_generate_and_close(resolve_adapter("openai-compatible/m@" + server.base_url), _request()))
        assert not isinstance(info.value, TransientError)


def test_bad_specs_are_config_errors() -> None:
    with pytest.raises(ConfigError, match="neither a frontier adapter"):
        resolve_adapter("nosuchprovider/model")
    with pytest.raises(ConfigError, match="openai-compatible spec"):
        resolve_adapter("openai-compatible/model-without-url")
    with pytest.raises(ConfigError, match="provider/model"):
        resolve_adapter("justaname")
    with pytest.raises(ConfigError, match="builtin/oracle or builtin/random"):
        resolve_adapter("builtin/genius")


async def _generate_and_close(adapter, request):
    try:
        return await adapter.generate(request)
    finally:
        close = getattr(adapter, "aclose", None)
        if close:
            await close()
