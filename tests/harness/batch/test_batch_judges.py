"""Judges and extractors (second models built per call with auxiliary_model) are gathered into one batch."""

from __future__ import annotations

import asyncio
from pathlib import Path

from harness.batch.session import BatchSession
from harness.batch.state import read_batches
from harness.calls import CallSettings, auxiliary_model, using_call_settings
from harness.run_options import RetryPolicy
from harness.testing.batch_server import BatchServer
from harness.types import GenerateRequest, Generation, Message


def test_judges_built_per_call_share_one_batch_and_are_logged_as_judges(
    tmp_path: Path, batch_server: BatchServer
) -> None:
    """Five judges, each its own adapter closed after its call, send one batch of five requests."""
    session = BatchSession(tmp_path, every_adapter=True, retry=RetryPolicy())
    settings = CallSettings(batch=session)
    spec = f"openai-compatible/judge@{batch_server.base_url}"

    async def judge(start: int) -> Generation:
        adapter = auxiliary_model(spec, "judge")
        request = GenerateRequest(messages=(Message(role="user", content=f"Start with {start}. Add 2."),))
        try:
            return await adapter.generate(request)
        finally:
            await adapter.aclose()

    async def judge_all() -> list[Generation]:
        with using_call_settings(settings):
            try:
                return await asyncio.gather(*(judge(start) for start in range(1, 6)))
            finally:
                await session.aclose()

    answers = asyncio.run(judge_all())
    assert [answer.text.rsplit(" ", 1)[-1] for answer in answers] == [
        str(start + 2 + (1 if text_is_wrong(start) else 0)) for start in range(1, 6)
    ]
    (lines,) = batch_server.batches.values()
    assert len(lines) == 5 and not batch_server.requests
    (record,) = read_batches(tmp_path).values()
    assert {role for _, _, role in record.requests.values()} == {"judge"}


def text_is_wrong(start: int) -> bool:
    """Whether the arith responder answers the prompt of ``start`` wrong (its fixed third)."""
    import zlib

    return zlib.crc32(f"Start with {start}. Add 2.".encode()) % 3 == 0


def test_a_steady_trickle_of_requests_is_submitted_after_max_gather(
    tmp_path: Path, batch_server: BatchServer, monkeypatch
) -> None:
    """Requests arriving faster than the gather window still go out once the first has waited max_gather_s."""
    monkeypatch.setenv("FRONTIER_BATCH_GATHER_S", "0.3")
    monkeypatch.setenv("FRONTIER_BATCH_MAX_GATHER_S", "0.4")
    session = BatchSession(tmp_path, every_adapter=True, retry=RetryPolicy())
    settings = CallSettings(batch=session)
    spec = f"openai-compatible/judge@{batch_server.base_url}"

    async def one(start: int) -> Generation:
        await asyncio.sleep(0.1 * start)
        adapter = auxiliary_model(spec, "judge")
        try:
            return await adapter.generate(
                GenerateRequest(messages=(Message(role="user", content=f"Start with {start}."),))
            )
        finally:
            await adapter.aclose()

    async def trickle() -> list[Generation]:
        with using_call_settings(settings):
            try:
                return await asyncio.gather(*(one(start) for start in range(15)))
            finally:
                await session.aclose()

    answers = asyncio.run(trickle())
    assert len(answers) == 15 and len(batch_server.batches) >= 2
    assert sum(len(lines) for lines in batch_server.batches.values()) == 15
