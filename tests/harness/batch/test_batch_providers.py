"""Batches through litellm's adapters: OpenAI's Batch API and Anthropic's Message Batches, at batch prices."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from harness.batch.state import price_notes, read_batches
from harness.errors import ConfigError
from harness.testing.batch_server import BatchServer

from .conftest import run_arith, scores


def test_openai_through_litellm_costs_half_at_the_batch_price(tmp_path: Path, batch_server: BatchServer) -> None:
    """gpt-4o-mini's batch prices in litellm's map are half its list prices: the batched run costs half, same scores."""
    model = f"openai/gpt-4o-mini@{batch_server.base_url}"
    direct = run_arith(tmp_path / "direct", model, batch=False)
    batched = run_arith(tmp_path / "batched", model, batch=True)
    assert len(batch_server.batches) == 1
    assert scores(tmp_path / "batched") == scores(tmp_path / "direct")
    full, half = direct.tasks["demo/arith"], batched.tasks["demo/arith"]
    assert full.cost_usd and half.cost_usd and full.cost_known and half.cost_known
    assert half.cost_usd == pytest.approx(full.cost_usd / 2, rel=1e-9)
    assert half.usage == full.usage
    assert price_notes(tmp_path / "batched") == ["openai/gpt-4o-mini: litellm's batch prices"]


def test_without_a_batch_price_the_documented_discount_is_used_and_stated(
    tmp_path: Path, batch_server: BatchServer
) -> None:
    """gpt-4 has list prices but no batch prices in litellm's map: half the list price, said as such."""
    model = f"openai/gpt-4@{batch_server.base_url}"
    direct = run_arith(tmp_path / "direct", model, batch=False, n=5)
    batched = run_arith(tmp_path / "batched", model, batch=True, n=5)
    full, half = direct.tasks["demo/arith"].cost_usd, batched.tasks["demo/arith"].cost_usd
    assert full and half and half == pytest.approx(full / 2, rel=1e-9)
    (note,) = price_notes(tmp_path / "batched")
    assert note.startswith("openai/gpt-4: 50% of litellm's list price (the providers' documented batch discount")


def test_anthropic_message_batches_answer_and_cost_at_litellms_batch_price(
    tmp_path: Path, batch_server: BatchServer
) -> None:
    """anthropic/claude-haiku-4-5 at the loopback server: one message batch, the scores of the direct run."""
    from harness.adapters.litellm_adapter import import_litellm

    run_arith(tmp_path / "direct", f"openai-compatible/m@{batch_server.base_url}", batch=False)
    host = batch_server.base_url.removesuffix("/v1")
    summary = run_arith(tmp_path / "batched", f"anthropic/claude-haiku-4-5@{host}", batch=True)
    (lines,) = batch_server.batches.values()
    assert lines[0]["params"]["model"] == "claude-haiku-4-5" and lines[0]["params"]["max_tokens"] > 0
    assert scores(tmp_path / "batched") == scores(tmp_path / "direct")
    task = summary.tasks["demo/arith"]
    prices = import_litellm().model_cost["claude-haiku-4-5"]
    expected = (
        task.usage.input_tokens * prices["input_cost_per_token_batches"]
        + task.usage.output_tokens * prices["output_cost_per_token_batches"]
    )
    assert task.cost_usd == pytest.approx(expected, rel=1e-9) and task.usage.output_tokens > 0


def test_anthropic_expired_and_errored_requests(tmp_path: Path, batch_server: BatchServer) -> None:
    """An expired message batch resubmits its expired requests; an errored request is an error outcome."""
    batch_server.behaviour.endings = ["expired"]
    batch_server.behaviour.error_every = 5
    host = batch_server.base_url.removesuffix("/v1")
    run_arith(tmp_path / "batched", f"anthropic/claude-haiku-4-5@{host}", batch=True)
    first, second = batch_server.batches.values()
    assert len(first) == 20 and len(second) == 10
    logged = scores(tmp_path / "batched")
    assert sum(outcome == "error" for outcome, _ in logged.values()) == 2  # lines 5 and 10 of the answered half
    ended = [r.ended["status"] for r in read_batches(tmp_path / "batched").values() if r.ended]
    assert ended == ["expired", "completed"]


def test_cached_requests_are_not_sent_in_a_batch(tmp_path: Path, batch_server: BatchServer) -> None:
    """A second batched run of the same deterministic requests is answered by the response cache: no batch."""
    model = f"openai-compatible/test-model@{batch_server.base_url}"
    cache = tmp_path / "cache.sqlite"
    run_arith(tmp_path / "first", model, batch=True, cache=cache)
    summary = run_arith(tmp_path / "second", model, batch=True, cache=cache)
    assert len(batch_server.batches) == 1
    assert summary.tasks["demo/arith"].cached_calls == 20
    assert scores(tmp_path / "second") == scores(tmp_path / "first")


def test_batches_are_split_at_the_request_limit(
    tmp_path: Path, batch_server: BatchServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At most $FRONTIER_BATCH_MAX_REQUESTS requests a batch: 20 requests go in batches of 7, 7 and 6."""
    monkeypatch.setenv("FRONTIER_BATCH_MAX_REQUESTS", "7")
    run_arith(tmp_path / "batched", f"openai-compatible/m@{batch_server.base_url}", batch=True)
    assert sorted(len(lines) for lines in batch_server.batches.values()) == [6, 7, 7]


def test_batches_are_split_at_the_byte_limit(
    tmp_path: Path, batch_server: BatchServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No batch input exceeds $FRONTIER_BATCH_MAX_BYTES."""
    monkeypatch.setenv("FRONTIER_BATCH_MAX_BYTES", "2048")
    run_arith(tmp_path / "batched", f"openai-compatible/m@{batch_server.base_url}", batch=True)
    assert len(batch_server.batches) > 2
    assert all(sum(len(str(line)) for line in lines) < 2 * 2048 for lines in batch_server.batches.values())
    assert len(scores(tmp_path / "batched")) == 20


def test_a_cancelled_batch_errors_its_requests_and_retry_errors_sends_them_again(
    tmp_path: Path, batch_server: BatchServer
) -> None:
    """Cancelled with half answered: the rest are errors saying so; --retry-errors resubmits just those."""
    batch_server.behaviour.endings = ["cancelled"]
    model = f"openai-compatible/m@{batch_server.base_url}"
    run_arith(tmp_path / "batched", model, batch=True)
    logged = [r for r in _results(tmp_path / "batched") if r.score.outcome == "error"]
    assert len(logged) == 10 and all("cancelled before answering" in r.score.explanation for r in logged)
    run_arith(tmp_path / "batched", model, batch=True, retry_errors=True)
    assert [len(lines) for lines in batch_server.batches.values()] == [20, 10]
    run_arith(tmp_path / "direct", model, batch=False)
    assert scores(tmp_path / "batched") == scores(tmp_path / "direct")


def test_a_failed_batch_is_an_error_for_each_of_its_requests(tmp_path: Path, batch_server: BatchServer) -> None:
    """A batch that fails validation ends every request in error with the provider's reason."""
    batch_server.behaviour.endings = ["failed"]
    run_arith(tmp_path / "batched", f"openai-compatible/m@{batch_server.base_url}", batch=True, n=4)
    logged = _results(tmp_path / "batched")
    assert [r.score.outcome for r in logged] == ["error"] * 4
    assert all("the input file failed validation" in r.score.explanation for r in logged)


def test_model_option_batch_on_an_adapter_without_batches_is_refused(tmp_path: Path) -> None:
    """-M batch=true on a litellm provider without a batch backend: a one-line configuration error, not a run."""
    with pytest.raises(ConfigError, match="-M batch=true: litellm provider 'gemini' has no batch backend"):
        run_arith(
            tmp_path / "run", "gemini/gemini-2.0-flash@http://127.0.0.1:9", batch=False, model_options={"batch": True}
        )


def test_batch_everywhere_leaves_adapters_without_batches_direct_said_once(tmp_path: Path, caplog) -> None:
    """--batch with builtin/oracle: its calls are made as usual, and that is said once."""
    with caplog.at_level(logging.WARNING, logger="harness.batch"):
        summary = run_arith(tmp_path / "run", "builtin/oracle", batch=True)
    assert summary.tasks["demo/arith"].metrics["accuracy"].value == 1.0
    assert caplog.text.count("has no batch endpoint") == 1


def test_multi_turn_tasks_call_the_model_directly_said_once(batch_server: BatchServer, tmp_path: Path, caplog) -> None:
    """A sample of a multi-turn task is not batched; the notice comes once however many calls it makes."""
    from harness.adapters import resolve_adapter
    from harness.adapters.base import close_adapter
    from harness.batch.session import BatchSession
    from harness.context import SampleContext, current_sample
    from harness.run_options import RetryPolicy
    from harness.types import GenerateRequest
    from tasks.demo.arith import ArithTask

    class TurnsTask(ArithTask):
        multi_turn = True

    session = BatchSession(tmp_path, every_adapter=True, retry=RetryPolicy())
    adapter = session.wrap(resolve_adapter(f"openai-compatible/m@{batch_server.base_url}"))
    task = TurnsTask("demo/turns", n=1)
    sample = next(iter(task.samples()))
    request = GenerateRequest(messages=sample.messages(), max_tokens=8)

    async def two_calls() -> None:
        token = current_sample.set(SampleContext(task=task, sample=sample, seed=0))
        try:
            for _ in range(2):
                await adapter.generate(request)
        finally:
            current_sample.reset(token)
            await session.aclose()
            await close_adapter(adapter)

    with caplog.at_level(logging.WARNING, logger="harness.batch"):
        asyncio.run(two_calls())
    assert caplog.text.count("is multi-turn") == 1
    assert not batch_server.batches and len(batch_server.requests) == 2


def _results(out: Path) -> list:
    from harness.runformat import RunFiles

    return list(RunFiles(out).results())
