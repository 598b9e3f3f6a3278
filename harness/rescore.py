"""Re-judge a run's logged outputs with the current scorers, calling no model.

The run's tasks are rebuilt from its config and their samples loaded once (as a run does,
:func:`harness.lifecycle.load_run`); the log is streamed and each output scored through the
same scoring path as a run (CPU-heavy tasks in the local process pool), with at most
``concurrency`` scores in flight, in one event loop. The new log keeps the old one's order.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

from harness.errors import ConfigError
from harness.executors.scoring import score_safely
from harness.lifecycle import LoadedRun, load_run, summarize_run
from harness.plan import plan_from_config
from harness.store import RunStore
from harness.types import SampleResult, Score

DEFAULT_CONCURRENCY = 64
"""Scores in flight at once: enough to keep a process pool busy, few enough to hold in memory."""


@dataclass
class RescoreCounts:
    """How many logged samples were scored again, and how many of those scores changed."""

    rescored: int = 0
    changed: int = 0


class _Rescorer:
    """Scores logged results again against the run's rebuilt tasks and loaded samples."""

    def __init__(self, run: LoadedRun, run_dir: Path) -> None:
        self.tasks = {entry.task.name: entry.task for entry in run.prepared}
        self.samples = {(name, sample.id): sample for name, samples in run.samples.items() for sample in samples}
        self.run_dir = run_dir

    def start(self, result: SampleResult) -> asyncio.Future[Score] | None:
        """The new score of ``result`` being computed, or None when it keeps its score (its model call failed)."""
        sample = self.samples.get((result.task, result.sample_id))
        if result.task not in self.tasks or sample is None:
            raise ConfigError(
                f"{self.run_dir}: logged sample {result.task}/{result.sample_id} no longer exists in its task"
            )
        if result.score.details.get("stage") == "model":
            return None
        return asyncio.ensure_future(score_safely(self.tasks[result.task], sample, result.output))


async def _rescored(
    store: RunStore, rescorer: _Rescorer, counts: RescoreCounts, concurrency: int
) -> AsyncIterator[SampleResult]:
    """The logged results with fresh scores, in log order, at most ``concurrency`` being scored at once."""
    window: deque[tuple[SampleResult, asyncio.Future[Score] | None]] = deque()

    async def settled() -> SampleResult:
        result, future = window.popleft()
        if future is None:
            return result
        score = await future
        counts.rescored += 1
        counts.changed += score != result.score
        return result.model_copy(update={"score": score})

    try:
        for result in store.results():
            window.append((result, rescorer.start(result)))
            if len(window) >= concurrency:
                yield await settled()
        while window:
            yield await settled()
    finally:
        for _, future in window:
            if future is not None:
                future.cancel()


async def rescore(run_dir: Path, concurrency: int = DEFAULT_CONCURRENCY) -> RescoreCounts:
    """Rewrite ``samples.jsonl`` with fresh scores and rebuild the summary.

    Samples whose model call failed keep their error. The run directory is locked while
    it is rescored; the new log is swapped in crash-safely and every log it replaces is
    kept as ``samples.before-rescore.<n>.jsonl`` (see :meth:`RunStore.rewriting`).
    """
    from harness.executors.local_pool import local_pool_scoring

    store = RunStore(run_dir)
    store.acquire()
    try:
        config = store.read_config()
        plan = plan_from_config(config)
        run = load_run(plan)
        counts = RescoreCounts()
        with local_pool_scoring(), store.rewriting() as log:
            async for result in _rescored(store, _Rescorer(run, run_dir), counts, max(1, concurrency)):
                log.write(result)
        previous = store.read_summary() if store.summary_path.exists() else None
        started_at = previous.started_at if previous else config.get("created_at", "")
        complete = previous.complete if previous else False
        store.write_summary(summarize_run(store, plan, run.prepared, config["config_hash"], started_at, complete))
    finally:
        store.close()
    return counts


def rescore_run(run_dir: Path, concurrency: int = DEFAULT_CONCURRENCY) -> tuple[int, int]:
    """:func:`rescore` in its own event loop; returns (rescored, changed)."""
    counts = asyncio.run(rescore(run_dir, concurrency))
    return counts.rescored, counts.changed
