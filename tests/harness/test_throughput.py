"""The pinned throughput definition against a loopback server of known speed (derived rates, no timed assert)."""

from __future__ import annotations

import asyncio

import pytest

from harness.adapters import resolve_adapter
from harness.runner import evaluate
from harness.testing.timed_server import TimedServer
from harness.throughput import throughput
from tasks.demo.arith import ArithTask

TOKENS, DELAY = 50, 0.5


@pytest.mark.slow
@pytest.mark.parametrize(("concurrency", "items"), [(1, 4), (8, 24)])
def test_measured_tok_s_is_within_ten_percent_of_the_server_s_rate(concurrency: int, items: int) -> None:
    task = ArithTask("demo/arith", n=items)
    with TimedServer(tokens=TOKENS, delay_s=DELAY) as server:
        adapter = resolve_adapter(f"openai-compatible/m@{server.base_url}")
        results = asyncio.run(evaluate(task, adapter, concurrency=concurrency))
    block = throughput(results)
    assert block is not None
    assert block["warmup_requests"] == concurrency and block["requests"] == items - concurrency
    assert block["concurrency"] == concurrency
    assert block["per_request_tok_s_median"] == pytest.approx(TOKENS / DELAY, rel=0.1)
    assert block["output_tok_s"] == pytest.approx(concurrency * TOKENS / DELAY, rel=0.1)


def test_a_summary_carries_the_throughput_block_and_one_without_timing_has_none() -> None:
    from harness.summary import summarize_tasks
    from harness.types import CallRecord, Generation, SampleResult, Score, Timing, Usage

    task = ArithTask("demo/arith", n=2)
    timed = Generation(latency_s=0.5, usage=Usage(output_tokens=50), timing=Timing(started_at=100.0))
    result = SampleResult(
        sample_id="a",
        task=task.name,
        input="x",
        score=Score.of(True),
        calls=(CallRecord(request_key="k", generation=timed),),
    )
    old = result.model_copy(update={"calls": (CallRecord(request_key="k", generation=Generation(latency_s=0.5)),)})
    block = summarize_tasks([task], [result], 0)[task.name].throughput
    assert block is not None and block["output_tok_s"] == 100.0 and block["warmup_requests"] == 0
    assert summarize_tasks([task], [old], 0)[task.name].throughput is None


def test_show_prints_the_throughput_line() -> None:
    from harness.cli.show import throughput_line

    line = throughput_line({"output_tok_s": 800.0, "per_request_tok_s_median": 100.0, "requests": 16, "concurrency": 8})
    assert line.startswith("800.0 output tok/s aggregate, per request median 100.0 p90 -")
    block = {"output_tok_s": 800.0, "output_tok_s_ci": [700.0, 900.0], "latency_s_median": 0.25}
    assert throughput_line(block).startswith("800.0 [700.0, 900.0] output tok/s aggregate; median latency 0.25 s,")


def test_the_intervals_are_a_seeded_bootstrap_over_requests_whatever_their_order() -> None:
    from harness.throughput import throughput_of
    from harness.types import Usage

    # one request at a time, each 1 s apart: latencies 0.2 to 0.9 s, 20 output tokens each
    calls = [(float(i), 0.2 + 0.1 * (i % 8), Usage(output_tokens=20)) for i in range(16)]
    block = throughput_of(list(calls))
    assert block is not None
    low, high = block["output_tok_s_ci"]
    assert low < block["output_tok_s"] < high
    median_low, median_high = block["latency_s_median_ci"]
    assert median_low <= block["latency_s_median"] <= median_high
    assert throughput_of(list(reversed(calls))) == block  # deterministic, not order-dependent
    same = throughput_of([(float(i), 0.5, Usage(output_tokens=20)) for i in range(16)])
    assert same is not None and same["output_tok_s_ci"] == pytest.approx([40.0, 40.0])  # no spread, no width
    assert same["latency_s_median_ci"] == pytest.approx([0.5, 0.5])
