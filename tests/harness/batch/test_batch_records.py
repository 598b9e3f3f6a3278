"""Results files read defensively, and the request and response shapes of both batch APIs."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import pytest

from harness.batch import anthropic_batch, openai_batch
from harness.batch.backend import path_id
from harness.batch.http import _split_lines
from harness.batch.pricing import BatchPricing
from harness.batch.records import Answer, Failure, Results, Unanswered
from harness.errors import AdapterError
from harness.types import GenerateRequest, Message

OK = {"choices": [{"message": {"content": "4"}, "finish_reason": "stop"}], "usage": {"prompt_tokens": 3}}


def openai_line(custom_id: object, status: int = 200, body: object = OK, error: object = None) -> bytes:
    response = {"status_code": status, "body": body}
    return json.dumps({"custom_id": custom_id, "response": response, "error": error}).encode()


def test_each_line_is_attributed_to_its_request_or_counted() -> None:
    """Answers, errors and expiries by custom_id; garbage, strangers and repeats are counted, never used."""
    results = Results({"a", "b", "c", "d", "e"})
    lines = [
        openai_line("a"),
        openai_line("b", 400, {"error": {"message": "bad input", "type": "invalid_request_error"}}),
        openai_line("c", 503, {"error": {"message": "busy"}}),
        json.dumps({"custom_id": "d", "error": {"code": "batch_expired", "message": "late"}}).encode(),
        openai_line("e"),
        openai_line("e"),
        openai_line("stranger"),
        b"{not json",
        None,  # a line over the size cap
        json.dumps(["a"]).encode(),
        openai_line(7),
        b'{"custom_id": "a", "n": ' + b"9" * 5000 + b"}",  # an integer too long for Python to read
    ]
    for line in lines:
        results.add(line, openai_batch.parse_record)
    outcomes = results.outcomes
    assert outcomes["a"] == Answer(OK)
    assert outcomes["b"] == Failure("HTTP 400: invalid_request_error: bad input", transient=False)
    assert outcomes["c"] == Failure("HTTP 503: busy", transient=True)
    assert outcomes["d"] == Unanswered("batch_expired")
    assert isinstance(outcomes["e"], Failure) and "more than one result" in outcomes["e"].message
    assert results.anomalies.as_dict() == {"malformed": 5, "unknown": 1, "duplicated": 1}


@pytest.mark.parametrize(
    "record",
    [
        {"custom_id": "a", "response": {"status_code": "200", "body": OK}},
        {"custom_id": "a", "response": {"status_code": 200, "body": "text"}},
        {"custom_id": "a"},
        {"custom_id": "a", "result": {"type": "succeeded", "message": []}},
        {"custom_id": "a", "result": {"type": "surprise"}},
    ],
)
def test_a_line_of_the_wrong_shape_fails_its_request_as_malformed(record: dict) -> None:
    """A line naming a request but not in the provider's shape: that request fails, the line counts as malformed."""
    parse = anthropic_batch.parse_record if "result" in record else openai_batch.parse_record
    results = Results({"a"})
    results.add(json.dumps(record).encode(), parse)
    assert isinstance(results.outcomes["a"], Failure) and results.anomalies.malformed == 1


def test_anthropic_results_and_messages() -> None:
    """succeeded, errored (overloaded is transient), expired; a message's text, tool use, stop reason, usage."""
    message = {
        "content": [
            {"type": "thinking", "thinking": "hmm"},
            {"type": "text", "text": "ANSWER: 4"},
            {"type": "tool_use", "id": "t1", "name": "add", "input": {"a": 1}},
        ],
        "stop_reason": "max_tokens",
        "usage": {"input_tokens": 10, "output_tokens": 5, "cache_read_input_tokens": 2},
    }
    parse = anthropic_batch.parse_record
    assert parse({"result": {"type": "succeeded", "message": message}}) == Answer(message)
    overloaded = {"type": "error", "error": {"type": "overloaded_error", "message": "busy"}}
    assert parse({"result": {"type": "errored", "error": overloaded}}) == Failure("overloaded_error: busy", True)
    assert parse({"result": {"type": "expired"}}) == Unanswered("expired")
    generation = anthropic_batch.generation_from_anthropic(message, 0.0, None)
    assert generation.text == "ANSWER: 4" and generation.finish_reason == "length"
    assert generation.tool_calls[0].arguments == '{"a":1}'
    assert (generation.usage.input_tokens, generation.usage.output_tokens, generation.usage.cached_tokens) == (12, 5, 2)
    absurd = {**message, "usage": {"input_tokens": -100000000, "output_tokens": 5}}
    pricing = BatchPricing(1e-6, 2e-6, "test prices")
    assert anthropic_batch.generation_from_anthropic(absurd, 0.0, pricing).usage.unknown
    assert anthropic_batch.generation_from_anthropic(absurd, 0.0, pricing).cost_usd is None
    assert anthropic_batch.generation_from_anthropic(message, 0.0, pricing).cost_usd == pytest.approx(12e-6 + 10e-6)
    with pytest.raises(AdapterError, match="no 'content' list"):
        anthropic_batch.generation_from_anthropic({"content": "text"}, 0.0, None)


def test_anthropic_request_lines_come_from_litellms_transformation() -> None:
    """The system prompt moves to ``system``; max_tokens is always set; several choices are refused."""
    backend = anthropic_batch.AnthropicBatchBackend("claude-haiku-4-5", "http://127.0.0.1:9", None)
    request = GenerateRequest(
        messages=(Message(role="system", content="be brief"), Message(role="user", content="2+2?")), temperature=0.0
    )
    line = backend.line("id-1", request)
    assert line["custom_id"] == "id-1" and line["params"]["max_tokens"] == anthropic_batch.DEFAULT_MAX_TOKENS
    assert line["params"]["system"][0]["text"] == "be brief"
    assert [m["role"] for m in line["params"]["messages"]] == ["user"]
    assert backend.refuses(request.model_copy(update={"n": 2})) == "the Messages API returns one choice"


@pytest.mark.parametrize("value", ["../../etc/passwd", "a/b", "x?y=1"])
def test_ids_from_the_provider_are_escaped_in_paths(value: str) -> None:
    """An id with path characters cannot move a request to another endpoint."""
    assert "/" not in path_id(value, "the batch id") and "?" not in path_id(value, "the batch id")


@pytest.mark.parametrize("value", [None, "", 7, "x" * 201])
def test_a_missing_or_absurd_id_is_refused(value: object) -> None:
    """No id, an empty one, a number or an absurdly long one: an AdapterError naming it."""
    with pytest.raises(AdapterError, match="not an id"):
        path_id(value, "the batch id")


def test_results_lines_are_split_across_chunks_with_a_cap() -> None:
    """Lines cut across chunks are joined; a line over the cap is skipped to its end and reported as None."""

    async def chunks() -> AsyncIterator[bytes]:
        for chunk in (b'{"a"', b":1}\n\n" + b"x" * 30, b"y" * 30 + b"\nlast"):
            yield chunk

    async def collect() -> list[bytes | None]:
        return [line async for line in _split_lines(chunks(), cap=40)]

    assert asyncio.run(collect()) == [b'{"a":1}', None, b"last"]
