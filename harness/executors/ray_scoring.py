"""CPU-heavy scoring as Ray tasks: each score is a task of one CPU, placed anywhere in the cluster."""

from __future__ import annotations

import functools
import logging
from typing import TYPE_CHECKING, Any

from harness.executors.scoring import TaskRefs, score_in_thread, score_in_worker
from harness.types import Output, Sample, Score

if TYPE_CHECKING:
    from harness.task import Task

log = logging.getLogger(__name__)

SYSTEM_RETRIES = 2


@functools.cache
def _remote_scorer() -> Any:
    import ray

    return ray.remote(num_cpus=1, max_retries=SYSTEM_RETRIES)(score_in_worker)


class RayScoring:
    """Scores as Ray tasks; needs ``ray.init`` to have run in this process (a driver or an actor)."""

    name = "ray"

    def __init__(self, num_cpus: float = 1.0) -> None:
        self.num_cpus = num_cpus
        self._refs = TaskRefs()

    async def score(self, task: Task, sample: Sample, output: Output) -> Score:
        """The task's score, computed by a Ray task (in a thread if the task cannot be rebuilt remotely)."""
        import ray

        ref = self._refs.get(task)
        if ref is None:
            return await score_in_thread(task, sample, output)
        try:
            return await _remote_scorer().options(num_cpus=self.num_cpus).remote(ref, sample, output)
        except ray.exceptions.RayTaskError as exc:
            cause = exc.cause if isinstance(exc.cause, BaseException) else exc
            return Score.error(f"scoring task failed: {type(cause).__name__}: {cause}", stage="scoring")
        except ray.exceptions.RayError as exc:
            return Score.error(
                f"scoring task lost after {SYSTEM_RETRIES} retries: {type(exc).__name__}: {exc}", stage="scoring"
            )

    def close(self) -> None:
        """Nothing to release: the tasks belong to the cluster."""
