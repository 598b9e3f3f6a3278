"""Hand a run's samples to workers in shards, as they free up, and retry the work of a worker that dies.

A worker is anything with ``async run(shard) -> results`` and ``async close()`` (a Ray
actor in practice). Each worker slot keeps ``depth`` shards in flight so that it never
waits on the driver. When a worker is lost (its process killed, its node gone) its shard
goes back to the queue sample by sample, a replacement worker takes the slot, and every
sample is tried at most ``max_attempts`` times; one that was in flight on that many dying
workers is logged with an ``error`` score naming that, so a sample that crashes its
worker cannot stall the run. The driver keeps the keys it logged and drops any second
result for a sample, so nothing is logged twice.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Protocol

from harness.store import result_key
from harness.types import Output, Sample, SampleResult, Score

log = logging.getLogger(__name__)


@dataclass
class Unit:
    """One sample of one task of the run, with the number of times it was lost with its worker."""

    task_index: int
    task_name: str
    sample: Sample
    attempts: int = 0

    @property
    def key(self) -> str:
        """The sample's identity in the run log."""
        return result_key(self.task_name, self.sample.id)


class WorkerLost(Exception):
    """The worker died or became unreachable; the samples of its shard did not finish."""


class Worker(Protocol):
    """Runs shards of samples and returns their results."""

    async def run(self, shard: list[Unit]) -> list[SampleResult]:
        """Solve and score every sample of ``shard``; WorkerLost when the worker is gone."""

    async def close(self) -> None:
        """Release the worker (best effort)."""


@dataclass
class DispatchStats:
    """What happened to the workers during a run."""

    workers_lost: int = 0
    requeued: int = 0
    gave_up: int = 0
    duplicates_dropped: int = 0
    shards: int = 0


@dataclass
class _Slot:
    index: int
    worker: Worker
    retired: list[Worker] = field(default_factory=list)


def given_up_result(unit: Unit, attempts: int, reason: str) -> SampleResult:
    """The ``error`` result of a sample that was in flight on ``attempts`` workers that all died."""
    sample = unit.sample
    return SampleResult(
        sample_id=sample.id,
        task=unit.task_name,
        input=sample.input,
        target=sample.target,
        output=Output(),
        score=Score.error(
            f"worker died {attempts} times while this sample was in flight; last: {reason}", stage="worker"
        ),
        metadata=sample.metadata,
    )


def _reason(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0][:300] if text else type(exc).__name__


class Dispatcher:
    """Feeds shards to ``workers`` slots, each filled by ``spawn(slot)``, and logs results once."""

    def __init__(
        self,
        spawn: Callable[[int], Worker],
        workers: int,
        shard_size: int,
        on_result: Callable[[SampleResult], None],
        depth: int = 2,
        max_attempts: int = 3,
        max_losses: int | None = None,
    ) -> None:
        if workers < 1 or shard_size < 1 or depth < 1 or max_attempts < 1:
            raise ValueError("workers, shard_size, depth and max_attempts must each be at least 1")
        self.spawn = spawn
        self.workers = workers
        self.shard_size = shard_size
        self.on_result = on_result
        self.depth = depth
        self.max_attempts = max_attempts
        self.max_losses = max_losses if max_losses is not None else 2 * workers + 3
        self.stats = DispatchStats()
        self._queue: deque[Unit] = deque()
        self._retry: deque[Unit] = deque()
        self._logged: set[str] = set()

    def _take(self) -> list[Unit]:
        if self._retry:
            return [self._retry.popleft()]
        shard: list[Unit] = []
        while self._queue and len(shard) < self.shard_size:
            shard.append(self._queue.popleft())
        return shard

    def _log(self, result: SampleResult) -> None:
        key = result_key(result.task, result.sample_id)
        if key in self._logged:
            self.stats.duplicates_dropped += 1
            return
        self._logged.add(key)
        self.on_result(result)

    def _accept(self, shard: list[Unit], results: list[SampleResult]) -> None:
        for result in results:
            self._log(result)
        missing = [unit for unit in shard if unit.key not in self._logged]
        if missing:
            log.warning("a worker returned no result for %d samples of its shard; they are queued again", len(missing))
            self._retry.extend(missing)

    def _lost(self, slot: _Slot, worker: Worker, shard: list[Unit], exc: WorkerLost) -> None:
        if slot.worker is worker:
            self.stats.workers_lost += 1
            if self.stats.workers_lost > self.max_losses:
                raise RuntimeError(f"{self.stats.workers_lost} workers lost; giving up the run (last: {exc})")
            log.warning(
                "worker in slot %d lost (%s); starting a replacement, %d samples queued again",
                slot.index,
                _reason(exc),
                len(shard),
            )
            slot.retired.append(worker)
            slot.worker = self.spawn(slot.index)
        for unit in shard:
            if unit.key in self._logged:
                continue
            unit.attempts += 1
            if unit.attempts >= self.max_attempts:
                self.stats.gave_up += 1
                self._log(given_up_result(unit, unit.attempts, _reason(exc)))
            else:
                self.stats.requeued += 1
                self._retry.append(unit)

    async def _feed(self, slot: _Slot) -> None:
        while self._queue or self._retry:
            shard = self._take()
            worker = slot.worker
            self.stats.shards += 1
            try:
                results = await worker.run(shard)
            except WorkerLost as exc:
                self._lost(slot, worker, shard, exc)
                continue
            self._accept(shard, results)

    async def run(self, units: Iterable[Unit]) -> DispatchStats:
        """Run every unit to a logged result; an error other than a lost worker stops the run and is raised."""
        self._queue.extend(units)
        if not self._queue:
            return self.stats
        slots = [_Slot(index, self.spawn(index)) for index in range(self.workers)]
        feeders = [asyncio.ensure_future(self._feed(slot)) for slot in slots for _ in range(self.depth)]
        try:
            done, _ = await asyncio.wait(feeders, return_when=asyncio.FIRST_EXCEPTION)
            for future in done:
                error = future.exception()
                if error is not None:
                    raise error
        finally:
            for future in feeders:
                future.cancel()
            await asyncio.gather(*feeders, return_exceptions=True)
            await asyncio.gather(*(w.close() for s in slots for w in (s.worker, *s.retired)), return_exceptions=True)
        return self.stats
