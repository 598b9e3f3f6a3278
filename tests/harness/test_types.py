"""Core records are immutable and survive a JSON round trip unchanged."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from harness.types import (
    CallRecord,
    GenerateRequest,
    Generation,
    Message,
    MetricValue,
    Output,
    RunSummary,
    Sample,
    SampleResult,
    Score,
    TaskSummary,
    TokenLogprob,
    ToolCall,
    Usage,
)


def _examples() -> list:
    call = ToolCall(id="c1", name="lookup", arguments='{"q": "x"}')
    message = Message(role="assistant", content=None, tool_calls=(call,))
    generation = Generation(
        text="hi",
        tool_calls=(call,),
        finish_reason="stop",
        usage=Usage(input_tokens=3, output_tokens=2, reasoning_tokens=1, cached_tokens=1),
        cost_usd=None,
        latency_s=0.5,
        logprobs=(TokenLogprob(token="hi", logprob=-0.1),),
    )
    request = GenerateRequest(
        messages=(Message(role="user", content="q"), message),
        max_tokens=5,
        temperature=0.0,
        stop=("\n",),
        seed=3,
        tools=({"type": "function", "function": {"name": "f"}},),
        tool_choice="auto",
        logprobs=True,
        reasoning_budget=100,
    )
    score = Score.of(True, answer="4", explanation="ok", extra=[1, 2])
    result = SampleResult(
        sample_id="s1",
        task="demo/arith",
        input=(Message(role="user", content="q"),),
        target=4,
        output=Output(text="4", trajectory=(message,)),
        score=score,
        calls=(CallRecord(request_key="k", generation=generation),),
        usage=generation.usage,
        cost_usd=None,
        cost_known=False,
    )
    summary = RunSummary(
        run_id="r",
        model="m",
        harness_version="0",
        config_hash="h",
        started_at="a",
        finished_at="b",
        tasks={
            "t": TaskSummary(
                metrics={"accuracy": MetricValue(value=1.0, n=1, ci_low=0.2, ci_high=1.0)},
                counts={"scored": 1, "unscored": 0, "error": 0},
                usage=Usage(),
                cost_usd=None,
            )
        },
    )
    return [call, message, generation, request, score, result, summary, Sample(id="x", input="p", target=[1, "a"])]


@pytest.mark.parametrize("record", _examples(), ids=lambda r: type(r).__name__)
def test_json_round_trip_is_lossless(record) -> None:
    assert type(record).model_validate_json(record.model_dump_json()) == record


def test_records_are_frozen_and_strict() -> None:
    usage = Usage(input_tokens=1)
    with pytest.raises(ValidationError):
        usage.input_tokens = 2  # type: ignore[misc]
    with pytest.raises(ValidationError):
        Score(value=1.0, outcome="maybe")  # type: ignore[arg-type]
    with pytest.raises(ValidationError):
        Usage.model_validate({"input_tokens": 1, "bogus": 2})


def test_usage_adds_and_request_determinism() -> None:
    total = Usage(input_tokens=1, output_tokens=2) + Usage(input_tokens=3, reasoning_tokens=1)
    assert (total.input_tokens, total.output_tokens, total.reasoning_tokens, total.total_tokens) == (4, 2, 1, 6)
    messages = (Message(role="user", content="q"),)
    assert GenerateRequest(messages=messages, temperature=0).is_deterministic()
    assert GenerateRequest(messages=messages, temperature=0.7, seed=1).is_deterministic()
    assert not GenerateRequest(messages=messages, temperature=0.7).is_deterministic()


def test_score_constructors() -> None:
    assert Score.unscored("no answer").outcome == "unscored" and Score.unscored("x").value is None
    assert Score.error("boom").outcome == "error"
    assert Score.of(False).value == 0.0 and Score.of(True).correct is True


def test_call_totals_sum_usage_and_say_whether_every_cost_is_known() -> None:
    from harness.types import Usage, summed_cost

    assert Usage.total([Usage(input_tokens=2, output_tokens=3), Usage(input_tokens=1, reasoning_tokens=4)]) == Usage(
        input_tokens=3, output_tokens=3, reasoning_tokens=4
    )
    assert Usage.total([]) == Usage()
    assert summed_cost([0.1, 0.2, 0.3]) == (0.6, True)  # fsum: exact, where 0.1 + 0.2 + 0.3 is 0.6000000000000001
    assert summed_cost([0.5, None]) == (0.5, False)
    assert summed_cost([None]) == (None, False)
    assert summed_cost([]) == (None, True)
