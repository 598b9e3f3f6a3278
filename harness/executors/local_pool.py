"""CPU-heavy scoring in a local process pool: one process per core, started on first use.

Scorers written in Python hold the GIL, so threads do not score in parallel; processes
do. The pool starts only when a CPU-heavy task scores its first sample, so runs of other
tasks pay nothing. Scores waiting at the same moment travel to the pool in batches (at
most ``max_batch``, sized so every worker gets some), which keeps the workers busy when
thousands are in flight (a rescore) without delaying a lone score.

A worker that dies (a scorer crashing the interpreter on some input) breaks the whole
pool in ``concurrent.futures``; the pool is then rebuilt and each score of the batches
that were in flight is retried alone, so one bad input cannot take others down with it.
A sample whose scoring keeps killing its worker gets an ``error`` score naming that, and
the run goes on. Workers exit, with the provers they started, when the run's process dies
(:mod:`harness.executors.parent_watch`), so a run killed with ``kill -9`` leaks none.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import math
import multiprocessing
import os
from collections import deque
from collections.abc import Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING

from harness.executors.parent_watch import watch_parent
from harness.executors.scoring import TaskRef, TaskRefs, score_batch_in_worker, score_in_thread, using_scoring
from harness.types import Output, Sample, Score

if TYPE_CHECKING:
    from harness.task import Task

log = logging.getLogger(__name__)

CRASH_RETRIES = 2


def _context() -> multiprocessing.context.BaseContext:
    method = "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
    return multiprocessing.get_context(method)


@dataclass
class _Job:
    ref: TaskRef
    sample: Sample
    output: Output
    result: asyncio.Future[Score]
    crashes: int = 0


class LocalPoolScoring:
    """Scores in a pool of ``workers`` processes (default: one per CPU)."""

    name = "local-pool"

    def __init__(self, workers: int | None = None, max_batch: int = 32) -> None:
        if workers is not None and workers < 1:
            raise ValueError(f"workers must be at least 1, got {workers}")
        if max_batch < 1:
            raise ValueError(f"max_batch must be at least 1, got {max_batch}")
        self.workers = workers or os.cpu_count() or 1
        self.max_batch = max_batch
        self._pool: ProcessPoolExecutor | None = None
        self._refs = TaskRefs()
        self._waiting: deque[_Job] = deque()
        self._alone: deque[_Job] = deque()
        self._batches_in_flight = 0

    async def score(self, task: Task, sample: Sample, output: Output) -> Score:
        """The task's score, computed in a pool process (in a thread if the task cannot be rebuilt there)."""
        ref = self._refs.get(task)
        if ref is None:
            return await score_in_thread(task, sample, output)
        job = _Job(ref, sample, output, asyncio.get_running_loop().create_future())
        self._waiting.append(job)
        self._send()
        return await job.result

    def _take(self) -> list[_Job]:
        if self._alone:
            return [self._alone.popleft()]
        size = min(self.max_batch, max(1, math.ceil(len(self._waiting) / (2 * self.workers))))
        return [self._waiting.popleft() for _ in range(min(size, len(self._waiting)))]

    def _send(self) -> None:
        while (self._waiting or self._alone) and self._batches_in_flight < 2 * self.workers:
            batch = [job for job in self._take() if not job.result.done()]
            if not batch:
                continue
            if self._pool is None:
                self._pool = ProcessPoolExecutor(
                    self.workers, mp_context=_context(), initializer=watch_parent, initargs=(os.getpid(),)
                )
            pool = self._pool
            items = [(job.ref, job.sample, job.output) for job in batch]
            try:
                future: Future[list[Score]] = pool.submit(score_batch_in_worker, items)
            except BrokenProcessPool:
                self._crashed(pool, batch)
                continue
            self._batches_in_flight += 1
            wrapped = asyncio.wrap_future(future)
            wrapped.add_done_callback(functools.partial(self._finished, batch=batch, pool=pool))

    def _finished(self, done: asyncio.Future[list[Score]], batch: list[_Job], pool: ProcessPoolExecutor) -> None:
        self._batches_in_flight -= 1
        error = None if done.cancelled() else done.exception()
        if done.cancelled() or isinstance(error, BrokenProcessPool):
            self._crashed(pool, batch)
        elif error is not None:
            failure = Score.error(f"scoring process failed: {type(error).__name__}: {error}", stage="scoring")
            for job in batch:
                _settle(job, failure)
        else:
            for job, score in zip(batch, done.result(), strict=False):
                _settle(job, score)
        self._send()

    def _crashed(self, pool: ProcessPoolExecutor, batch: list[_Job]) -> None:
        if self._pool is pool:
            log.warning("a scoring process died; restarting the scoring pool and retrying its scores one by one")
            _kill_workers(pool)
            pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
        for job in batch:
            job.crashes += 1
            if job.crashes > CRASH_RETRIES:
                _settle(
                    job,
                    Score.error(
                        f"the scoring process died {job.crashes} times while scoring this sample", stage="scoring"
                    ),
                )
            else:
                self._alone.append(job)

    def worker_pids(self) -> list[int]:
        """Process ids of the pool's live workers (empty before the first score)."""
        processes = getattr(self._pool, "_processes", None) or {}
        return sorted(pid for pid, process in processes.items() if process.is_alive())

    def close(self) -> None:
        """Stop the pool's processes."""
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None


def _kill_workers(pool: ProcessPoolExecutor) -> None:
    """Kill a broken pool's surviving workers: one may hold the call queue's lock its dead sibling left
    taken, and would then block forever, and with it the pool's shutdown and the interpreter's exit."""
    for process in list((getattr(pool, "_processes", None) or {}).values()):
        if process.is_alive():
            process.kill()


def _settle(job: _Job, score: Score) -> None:
    if not job.result.done():
        job.result.set_result(score)


@contextmanager
def local_pool_scoring(workers: int | None = None) -> Iterator[LocalPoolScoring]:
    """A process pool for CPU-heavy scoring, active inside the block and stopped after it."""
    backend = LocalPoolScoring(workers)
    try:
        with using_scoring(backend):
            yield backend
    finally:
        backend.close()
