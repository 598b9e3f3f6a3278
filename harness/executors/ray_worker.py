"""The Ray actor that solves shards of a run: its own tasks, adapter and concurrency bound.

Each worker builds the run's tasks and model from the plan, is given the samples the driver
loaded (so batch-planning methods see every sample of each task before the first generation,
as in the local runner, without loading the data again), solves the samples it is handed with
``harness.runner.solve_sample`` under its own concurrency bound, scores CPU-heavy tasks as Ray
tasks, and returns the results as JSON lines; it never writes the run log (the driver does).
"""

from __future__ import annotations

import asyncio
import functools
import os
from dataclasses import replace
from typing import Any

from harness.adapters.base import close_adapter
from harness.calls import CallSettings, using_call_settings
from harness.methods.planning import plan_methods
from harness.plan import RunPlan, build_task
from harness.run_options import RunOptions
from harness.runner import build_model, solve_sample
from harness.types import Sample, SampleResult, record_json


class SampleWorker:
    """Solves ``(task index, sample)`` pairs of one plan with at most ``concurrency`` in flight."""

    def __init__(
        self,
        plan: RunPlan,
        options: RunOptions,
        concurrency: int,
        samples: dict[str, list[Sample]],
        scoring_cpus: float = 1.0,
    ) -> None:
        from harness.executors.ray_scoring import RayScoring
        from harness.registry import output_cap

        self.prepared = [build_task(task_plan, output_cap(plan.model)) for task_plan in plan.tasks]
        self.samples = samples
        self.concurrency = max(1, concurrency)
        worker_options = replace(options, progress=False, concurrency=self.concurrency)
        self.calls = CallSettings.of_run(worker_options, plan.seed)
        self.model = build_model(plan, worker_options, self.calls)
        self.seed = plan.seed
        self.scoring = RayScoring(num_cpus=scoring_cpus)
        self._slots: asyncio.Semaphore | None = None
        self._planned: asyncio.Future[None] | None = None

    def pid(self) -> int:
        """This worker's process id (for operators and tests)."""
        return os.getpid()

    async def _plan(self) -> None:
        for entry in self.prepared:
            await plan_methods(self.model, self.samples[entry.task.name], task=entry.task)

    async def _solve(self, task_index: int, sample: Sample) -> SampleResult:
        assert self._slots is not None
        entry = self.prepared[task_index]
        async with self._slots:
            return await solve_sample(entry.task, sample, entry.settings, self.model, self.seed)

    async def run_shard(self, shard: list[tuple[int, Sample]]) -> list[str]:
        """Solve and score the shard; one JSON line per sample, in the shard's order."""
        from harness.executors.scoring import using_scoring

        if self._slots is None:
            self._slots = asyncio.Semaphore(self.concurrency)
            self._planned = asyncio.ensure_future(self._plan())
        assert self._planned is not None
        await asyncio.shield(self._planned)
        with using_scoring(self.scoring), using_call_settings(self.calls):
            results = await asyncio.gather(*(self._solve(index, sample) for index, sample in shard))
        return [record_json(result) for result in results]

    async def close(self) -> None:
        """Close the model's connections."""
        await close_adapter(self.model)


@functools.cache
def remote_worker_class() -> Any:
    """``SampleWorker`` as a Ray actor class."""
    import ray

    return ray.remote(SampleWorker)
