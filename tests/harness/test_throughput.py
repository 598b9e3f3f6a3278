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
