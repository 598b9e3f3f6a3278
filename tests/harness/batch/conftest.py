"""Batch tests: quick gathering and polling, and a helper that runs demo/arith into a run directory."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.run_options import RetryPolicy, RunOptions
from harness.testing.batch_server import BatchBehaviour, BatchServer
from harness.testing.responders import arith_responder
from harness.types import RunSummary

FAST = {"FRONTIER_BATCH_GATHER_S": "0.05", "FRONTIER_BATCH_POLL_S": "0.01", "FRONTIER_BATCH_MAX_POLL_S": "0.02"}


@pytest.fixture(autouse=True)
def fast_batches(monkeypatch: pytest.MonkeyPatch) -> None:
    """Gather for 50 ms and poll every 10-20 ms."""
    for key, value in FAST.items():
        monkeypatch.setenv(key, value)


@pytest.fixture(autouse=True)
def private_response_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Each test's ``frontier`` commands cache responses in the test's own folder.

    In a cache shared with other tests (the session's, or the user's when ``FRONTIER_CACHE_DIR`` is empty)
    a resumed run is answered from the cache whenever its loopback server's port (part of the adapter's
    name) is one an earlier run answered demo/arith on, and then no batch is asked at all.
    """
    monkeypatch.setenv("FRONTIER_CACHE_DIR", str(tmp_path / "response-cache"))


@pytest.fixture
def batch_server() -> Iterator[BatchServer]:
    """A loopback server with both batch APIs, answering demo/arith right except on a fixed third."""
    server = BatchServer(arith_responder(), BatchBehaviour())
    server.start()
    try:
        yield server
    finally:
        server.stop()


def run_arith(
    out: Path,
    model: str,
    batch: bool,
    n: int = 20,
    cache: Path | None = None,
    retry_errors: bool = False,
    model_options: dict[str, object] | None = None,
) -> RunSummary:
    """demo/arith with ``n`` problems against ``model`` into ``out``, batched or not."""
    from harness.cli.run import build_plan
    from harness.runner import execute

    plan = build_plan(None, ("demo/arith",), model, (), {"n": str(n)}, None, 0, {}, model_options)
    options = RunOptions(
        progress=False,
        cache_path=cache,
        retry=RetryPolicy(max_retries=3, base_delay_s=0.01),
        retry_errors=retry_errors,
        batch_dir=out if batch or (model_options or {}).get("batch") else None,
        batch_all=batch,
    )
    return asyncio.run(execute(plan, out, options))


def scores(out: Path) -> dict[str, tuple[str, float | None]]:
    """Each sample's outcome and value, by sample id, from the run's log (its last record per sample)."""
    from harness.runformat import RunFiles

    return {r.sample_id: (r.score.outcome, r.score.value) for r in RunFiles(out).results()}
