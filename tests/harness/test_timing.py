"""Timing in call records: when a call was sent, time to first token, the text's tokens and server figures."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from harness.adapters import resolve_adapter
from harness.adapters.server_timing import MAX_FIGURES, server_figures
from harness.calls import CallingAdapter, RetryPolicy
from harness.errors import AdapterError, ConfigError
from harness.testing.openai_server import OpenAIServer
from harness.testing.timed_server import TimedServer
from harness.types import GenerateRequest, Generation, Message

REQUEST = GenerateRequest(messages=(Message(role="user", content="Start with 3. Add 4. Multiply by 2."),))

LLAMA_CPP_BODY: dict[str, Any] = {
    "choices": [{"index": 0, "message": {"role": "assistant", "content": "hi"}, "finish_reason": "stop"}],
    "created": 1764800000,
    "model": "gemma",
    "usage": {"prompt_tokens": 9, "completion_tokens": 1, "total_tokens": 10},
    "timings": {"prompt_n": 9, "prompt_ms": 12.5, "predicted_n": 1, "predicted_ms": 3.0, "predicted_per_second": 333.3},
}


async def _generate(spec: str, retry: RetryPolicy | None = None, **options: object) -> Generation:
    adapter = CallingAdapter(resolve_adapter(spec, **options), retry=retry)
    try:
        return await adapter.generate(REQUEST)
    finally:
        await adapter.aclose()


def test_llama_cpp_timings_and_usage_extras_are_kept_under_dotted_names() -> None:
    body = {**LLAMA_CPP_BODY, "usage": {**LLAMA_CPP_BODY["usage"], "num_steps": 64, "prompt_tokens_details": None}}
    figures = server_figures(body)
    assert figures["timings.predicted_ms"] == 3.0 and figures["timings.prompt_n"] == 9
    assert figures["usage.num_steps"] == 64
    assert "created" not in figures and "usage.prompt_tokens" not in figures


def test_hostile_server_figures_keep_only_finite_numbers_and_a_bounded_count() -> None:
    body = {
        "choices": [],
        "nan": float("nan"),
        "flag": True,
        "name": "x",
        "deep": {"a": {"b": {"c": {"d": 1}}}},
        "many": {f"k{i}": i for i in range(1000)},
    }
    figures = server_figures(body)
    assert len(figures) == MAX_FIGURES
    assert not any(key.startswith(("nan", "flag", "name", "deep")) for key in figures)


@pytest.mark.slow
def test_a_call_records_when_it_was_sent_and_what_the_server_reported() -> None:
    with TimedServer(tokens=5, step_delay_s=0.01, steps=2) as server:
        extra = {"steps": 3, "block_length": 32, "threshold": 0.9}
        generation = asyncio.run(_generate(f"openai-compatible/m@{server.base_url}", extra_body=extra))
        plain = asyncio.run(_generate(f"openai-compatible/m@{server.base_url}"))
    timing = generation.timing
    assert timing is not None and timing.started_at is not None and timing.started_at > 1e9
    assert timing.server["steps"] == 3 and timing.server["nfe"] == 3
    assert timing.server["echo.block_length"] == 32 and timing.server["echo.threshold"] == 0.9
    assert timing.ttft_s is None and timing.text_tokens is None  # not streamed, no logprobs
    assert plain.timing is not None and plain.timing.server["steps"] == 2 and "echo.steps" not in plain.timing.server
    assert generation.usage.output_tokens == 5 and generation.text.endswith("ANSWER: 14")


@pytest.mark.slow
def test_a_streamed_call_records_its_first_token_and_the_text_s_tokens() -> None:
    with TimedServer(tokens=6, delay_s=0.2) as server:
        spec = f"openai-compatible/m@{server.base_url}"
        streamed = asyncio.run(_generate(spec, stream=True))
        plain = asyncio.run(_generate(spec))
        assert server.requests[0]["stream"] is True and server.requests[0]["stream_options"] == {"include_usage": True}
    assert streamed.text == plain.text and streamed.usage == plain.usage and streamed.finish_reason == "stop"
    timing = streamed.timing
    assert timing is not None and timing.ttft_s is not None
    assert 0.2 <= timing.ttft_s <= streamed.latency_s
    assert timing.text_tokens == 6 and timing.server["steps"] == 1


class _BrokenStream(OpenAIServer):
    async def _handle_chat(self, request: Any) -> Any:
        from aiohttp import web

        await request.json()
        stream = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await stream.prepare(request)
        await stream.write(b'data: {"choices": [{"index": 0, "delta": {"content": "par')
        await stream.write(b"\n\n")
        return stream


@pytest.mark.slow
def test_a_stream_cut_short_is_a_transient_error() -> None:
    with _BrokenStream() as server, pytest.raises(AdapterError, match=r"after 0 retries.*malformed event"):
        asyncio.run(_generate(f"openai-compatible/m@{server.base_url}", retry=RetryPolicy(max_retries=0), stream=True))


def test_records_without_timing_read_and_write_as_before() -> None:
    old = Generation.model_validate_json('{"text": "x", "latency_s": 0.5}')
    assert old.timing is None and "timing" not in json.loads(old.model_dump_json())


def test_a_bad_extra_body_option_is_refused_in_one_line() -> None:
    with pytest.raises(ConfigError, match="extra_body must be dict"):
        resolve_adapter("openai-compatible/m@http://127.0.0.1:9/v1", extra_body="steps")
