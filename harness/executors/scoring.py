"""One interface for CPU-heavy scoring: a thread, a local process pool or Ray tasks.

The runner scores a ``cpu_heavy`` task through :func:`score_off_loop`, which hands the
work to the backend made active with :func:`using_scoring` (a thread when none is).
Backends that score in other processes rebuild the task there from its registered name
and arguments (a :class:`TaskRef`); a task that cannot be rebuilt that way (one built
outside the registry, say in a test) is scored in a thread instead, never wrongly.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import traceback
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from harness.executors.time_limit import score_within
from harness.types import Output, Sample, Score

if TYPE_CHECKING:
    from harness.task import Task

log = logging.getLogger(__name__)


class ScoringBackend(Protocol):
    """Scores samples of CPU-heavy tasks off the event loop."""

    name: str

    async def score(self, task: Task, sample: Sample, output: Output) -> Score:
        """The task's score of ``output``; failures become an ``error`` score, never an exception."""

    def close(self) -> None:
        """Release the backend's processes."""


_active: ContextVar[ScoringBackend | None] = ContextVar("scoring_backend", default=None)


@contextmanager
def using_scoring(backend: ScoringBackend | None) -> Iterator[ScoringBackend | None]:
    """Make ``backend`` the one CPU-heavy scoring goes through inside the block (and its asyncio tasks)."""
    token = _active.set(backend)
    try:
        yield backend
    finally:
        _active.reset(token)


def active_scoring() -> ScoringBackend | None:
    """The backend set by the innermost :func:`using_scoring`, or None (score in a thread)."""
    return _active.get()


def limited_score(task: Task, sample: Sample, output: Output) -> Score:
    """``task.score`` within the task's scoring time limit (:mod:`harness.executors.time_limit`): every
    scoring path, in a thread, a pool process or a Ray task, calls the scorer through this."""
    return score_within(task.scoring_time_limit_s, lambda: task.score(sample, output))


async def score_off_loop(task: Task, sample: Sample, output: Output) -> Score:
    """Score through the active backend, or in a thread when none is set.

    With no backend, an exception of the scorer propagates (the runner turns it into an
    ``error`` score); backends return that ``error`` score themselves.
    """
    backend = _active.get()
    if backend is None:
        return await asyncio.to_thread(limited_score, task, sample, output)
    return await backend.score(task, sample, output)


async def score_safely(task: Task, sample: Sample, output: Output) -> Score:
    """The task's score of ``output``: off the loop when the task is CPU-heavy; a scorer exception is an ``error``."""
    try:
        if task.cpu_heavy:
            return await score_off_loop(task, sample, output)
        return limited_score(task, sample, output)
    except Exception as exc:
        return scorer_failure(exc)


async def score_in_thread(task: Task, sample: Sample, output: Output) -> Score:
    """Score in a thread; a scorer exception becomes an ``error`` score."""
    try:
        return await asyncio.to_thread(limited_score, task, sample, output)
    except Exception as exc:
        return scorer_failure(exc)


def scorer_failure(exc: BaseException) -> Score:
    """The ``error`` score of a scorer that raised (worded as the runner words it)."""
    return Score.error(
        f"scorer failed: {type(exc).__name__}: {exc}", traceback="".join(traceback.format_exception(exc, limit=5))
    )


@dataclass(frozen=True)
class TaskRef:
    """How another process rebuilds a task: its registered name and validated arguments."""

    name: str
    args: dict[str, Any]
    key: str

    @classmethod
    def of(cls, task: Task) -> TaskRef | None:
        """A reference that rebuilds ``task`` exactly, or None when the registry cannot."""
        from harness.registry import resolve_task

        args = task.args.model_dump(mode="json")
        try:
            rebuilt = resolve_task(task.name).create(**args)
        except Exception as exc:
            log.info("task %s cannot be rebuilt from the registry (%s); scoring it in a thread", task.name, exc)
            return None
        if _class_name(rebuilt) != _class_name(task) or rebuilt.fingerprint() != task.fingerprint():
            log.info("task %s rebuilt from the registry differs from the run's; scoring it in a thread", task.name)
            return None
        fingerprint = json.dumps(task.fingerprint(), sort_keys=True)
        return cls(task.name, args, hashlib.sha256(fingerprint.encode()).hexdigest())


def _class_name(task: Task) -> str:
    return f"{type(task).__module__}.{type(task).__qualname__}"


class TaskRefs:
    """:meth:`TaskRef.of` computed once per task object."""

    def __init__(self) -> None:
        self._refs: dict[int, tuple[Task, TaskRef | None]] = {}

    def get(self, task: Task) -> TaskRef | None:
        """The reference of ``task`` (None: score it in a thread)."""
        entry = self._refs.get(id(task))
        if entry is None or entry[0] is not task:
            entry = (task, TaskRef.of(task))
            self._refs[id(task)] = entry
        return entry[1]


_WORKER_TASKS: dict[str, Task] = {}


def score_in_worker(ref: TaskRef, sample: Sample, output: Output) -> Score:
    """Score in a worker process, building the task on first use; never raises for a scorer bug."""
    task = _WORKER_TASKS.get(ref.key)
    if task is None:
        from harness.registry import resolve_task

        task = resolve_task(ref.name).create(**ref.args)
        _WORKER_TASKS[ref.key] = task
    try:
        return limited_score(task, sample, output)
    except Exception as exc:
        return scorer_failure(exc)


def score_batch_in_worker(items: list[tuple[TaskRef, Sample, Output]]) -> list[Score]:
    """:func:`score_in_worker` over a batch, in order."""
    return [score_in_worker(ref, sample, output) for ref, sample, output in items]
