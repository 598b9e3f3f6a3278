"""The persistent backend: a pool of ``coqtop`` workers, one per core.

Each worker (``coins_rocq.backends.coqtop_worker``) answers sentence by sentence, each reply
matched to its sentence by a per-worker nonce marker; a misaligned reply is a protocol
anomaly, after which the worker is replaced and the spec is invalid. A job starts with
``Reset coins_mark``, loads the spec once and then runs its obligations, each attempt one
definition by ``ltac:(coins_ladder)`` (the first pass pipelined); the proofs are audited
together at the end of the job (``coins_rocq.backends.coqtop_session``). The pool gives each job to a worker that
already has its prelude loaded when one is free.
"""

from __future__ import annotations

import os
import queue
import threading
from collections.abc import Sequence

from coins_rocq.backends.base import JobResult, Limits, SpecJob
from coins_rocq.backends.coqtop_session import CoqtopSession
from coins_rocq.backends.coqtop_worker import CoqtopWorker
from coins_rocq.backends.decision import run_job

JOBS_PER_WORKER = 60
"""A worker is replaced after this many specs, or sooner when it has grown past
``MEMORY_SHARE`` of its address-space limit: ``Reset`` rewinds Rocq's state but the process
keeps the memory it grew to (about 25 MB a spec on the curated set), and would reach its limit."""

MEMORY_SHARE = 0.6


def _address_space_mb(pid: int) -> int | None:
    """The process's virtual memory size in MB (``VmSize``), or None where ``/proc`` cannot tell."""
    try:
        with open(f"/proc/{pid}/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("VmSize:"):
                    return int(line.split()[1]) // 1024
    except (OSError, ValueError, IndexError):
        return None
    return None


class _Slot:
    """Holds one worker, starting a fresh one when the last has died or is due to be replaced."""

    def __init__(self) -> None:
        self._worker: CoqtopWorker | None = None
        self._jobs = 0

    def worker(self, limits: Limits) -> CoqtopWorker:
        if self._worker is None or not self._worker.alive():
            if self._worker is not None:
                self._worker.close()
            self._worker = CoqtopWorker(limits)
        return self._worker

    def _due(self) -> bool:
        """True when the worker has served ``JOBS_PER_WORKER`` specs or grown past its share of memory."""
        if self._worker is None:
            return False
        if self._jobs >= JOBS_PER_WORKER:
            return True
        size = _address_space_mb(self._worker.proc.pid)
        if size is None:
            return self._jobs >= JOBS_PER_WORKER // 2
        return size > MEMORY_SHARE * self._worker.limits.memory_mb

    def start_job(self) -> None:
        """Count a new spec on this slot's worker, replacing the worker when it is due."""
        if self._due():
            self.close()
        self._jobs += 1

    def next_prelude(self) -> tuple[str, ...] | None:
        """The prelude the next job will find loaded (None when the worker is absent or due to be replaced)."""
        if self._worker is None or self._due():
            return None
        return self._worker.prelude

    def discard(self) -> None:
        """Kill the current worker; the next job gets a fresh one."""
        self.close()

    def close(self) -> None:
        self._jobs = 0
        if self._worker is not None:
            self._worker.close()
            self._worker = None


class _Todo:
    """The jobs not yet taken; a worker takes the first one whose prelude it has loaded, else the first."""

    def __init__(self, jobs: Sequence[SpecJob]) -> None:
        self._jobs = jobs
        self._left = list(range(len(jobs)))
        self._lock = threading.Lock()

    def take(self, prelude: tuple[str, ...] | None) -> int | None:
        """The index of the next job for a worker with ``prelude`` loaded, or None when none is left."""
        with self._lock:
            if not self._left:
                return None
            at = next((i for i, index in enumerate(self._left) if self._jobs[index].prelude == prelude), 0)
            return self._left.pop(at)


class CoqtopPool:
    """A pool of persistent ``coqtop`` workers (default: one per core); use as a context manager.

    ``run`` may be called from several threads at once: each job takes a free worker.
    """

    name = "pool"

    def __init__(self, workers: int | None = None) -> None:
        self.size = max(1, workers or os.cpu_count() or 1)
        self._slots = [_Slot() for _ in range(self.size)]
        self._free: queue.Queue[_Slot] = queue.Queue()
        for slot in self._slots:
            self._free.put(slot)

    def run(self, jobs: Sequence[SpecJob]) -> list[JobResult]:
        """Run ``jobs`` across the free workers; results come back in the jobs' order."""
        todo = _Todo(jobs)
        results: list[JobResult | None] = [None] * len(jobs)
        errors: list[BaseException] = []

        def work() -> None:
            slot = self._free.get()
            try:
                while True:
                    index = todo.take(slot.next_prelude())
                    if index is None:
                        return
                    slot.start_job()
                    results[index] = run_job(jobs[index], CoqtopSession(slot, jobs[index].limits))
            except BaseException as exc:
                errors.append(exc)
            finally:
                self._free.put(slot)

        threads = [threading.Thread(target=work, daemon=True) for _ in range(max(1, min(self.size, len(jobs))))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if errors:
            raise errors[0]
        return [r if r is not None else JobResult(load_error="not run") for r in results]

    def close(self) -> None:
        """Stop every worker and remove their temporary directories."""
        for slot in self._slots:
            slot.close()

    def __enter__(self) -> CoqtopPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
