"""``execute_on_ray``: the Ray counterpart of ``harness.runner.execute``, with the same contract.

Both go through one lifecycle (:func:`harness.lifecycle.run_lifecycle`): the driver (this
process) builds the tasks, loads their samples once, opens the run directory and is its only
writer; :class:`RayExecutor` supplies only how the samples are solved. Ray actors
(:class:`~harness.executors.ray_worker.SampleWorker`), spread over the cluster, each build their
own adapter, are given the driver's loaded samples (through the object store, for their methods'
batch planning) and solve the shards the dispatcher hands them; CPU-heavy scoring runs as Ray
tasks. Results come back to the driver, which drops any duplicate and appends each to
``samples.jsonl`` as it arrives, so resume, the summary and the log format are exactly the local
runner's. ``--concurrency`` stays the bound for the whole run: it is split across the workers.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

from harness.adapters.base import close_adapter
from harness.executors.dispatch import Dispatcher, DispatchStats, Unit, WorkerLost
from harness.executors.ray_session import ray_session
from harness.lifecycle import LoadedRun, Record, WorkItem, load_run, run_lifecycle
from harness.plan import PreparedTask, RunPlan
from harness.run_options import RunOptions
from harness.runner import build_model
from harness.types import RunSummary, Sample, SampleResult

log = logging.getLogger(__name__)

WORKER_NAMESPACE = "frontier-evals"
WORKER_PREFIX = "frontier-worker-"


def worker_split(concurrency: int, workers: int) -> list[int]:
    """``concurrency`` split as evenly as possible over ``workers`` (each at least 1)."""
    base, extra = divmod(concurrency, workers)
    return [max(1, base + (1 if index < extra else 0)) for index in range(workers)]


class RayWorker:
    """A :class:`SampleWorker` actor seen through the dispatcher's ``Worker`` interface."""

    def __init__(self, actor: Any) -> None:
        self.actor = actor

    async def run(self, shard: list[Unit]) -> list[SampleResult]:
        """Run the shard on the actor; WorkerLost when the actor or its node died."""
        import ray

        lost = (
            ray.exceptions.RayActorError,
            ray.exceptions.WorkerCrashedError,
            ray.exceptions.ObjectLostError,
            ray.exceptions.NodeDiedError,
        )
        try:
            lines = await self.actor.run_shard.remote([(unit.task_index, unit.sample) for unit in shard])
        except lost as exc:
            raise WorkerLost(str(exc)) from exc
        except ray.exceptions.RayTaskError as exc:
            cause = exc.cause
            raise (cause if isinstance(cause, Exception) else exc) from None
        return [SampleResult.model_validate_json(line) for line in lines]

    async def close(self) -> None:
        """Close the actor's connections, then end it."""
        import ray

        with contextlib.suppress(Exception):
            await asyncio.wait_for(self.actor.close.remote(), timeout=10)
        ray.kill(self.actor)


def _spawner(plan: RunPlan, options: RunOptions, split: list[int], samples: object) -> Callable[[int], RayWorker]:
    """Starts the worker of a slot; ``samples`` is the object-store reference of the run's loaded samples."""
    from harness.executors.ray_worker import remote_worker_class

    run_tag = uuid.uuid4().hex[:8]
    generation = [0]

    def spawn(slot: int) -> RayWorker:
        generation[0] += 1
        actor = (
            remote_worker_class()
            .options(
                name=f"{WORKER_PREFIX}{run_tag}-{slot}-{generation[0]}",
                namespace=WORKER_NAMESPACE,
                num_cpus=0,
                max_restarts=0,
                scheduling_strategy="SPREAD",
            )
            .remote(plan, options, split[slot], samples)
        )
        return RayWorker(actor)

    return spawn


class RayExecutor:
    """Solves a run's samples on a Ray cluster (see the module's docstring)."""

    def __init__(
        self,
        plan: RunPlan,
        options: RunOptions,
        address: str | None = None,
        workers: int | None = None,
        shard_size: int | None = None,
    ) -> None:
        if workers is not None and workers < 1:
            raise ValueError(f"workers must be at least 1, got {workers}")
        self.run_plan = plan
        self.options = options
        self.address = address
        self.workers = workers
        self.shard_size = shard_size
        self.prepared: list[PreparedTask] = []
        self.samples: dict[str, list[Sample]] = {}

    async def start(self, run: LoadedRun) -> None:
        """Check that the plan's model and methods build here, before any worker is started."""
        await close_adapter(build_model(self.run_plan, self.options))
        self.prepared, self.samples = run.prepared, run.samples

    async def plan(self, run: LoadedRun) -> None:
        """Nothing on the driver: each worker plans its methods over the samples it is given."""

    async def solve(self, items: list[WorkItem], record: Record) -> None:
        """Shard ``items`` over the cluster's workers; each result is recorded as it comes back."""
        if not items:
            return
        index = {entry.task.name: position for position, entry in enumerate(self.prepared)}
        units = [Unit(index[task.name], task.name, sample) for task, sample, _ in items]
        with ray_session(self.address):
            stats = await self._dispatch(units, record)
        log.info(
            "ray run: %d shards, %d workers lost, %d samples retried, %d given up, %d duplicates dropped",
            stats.shards,
            stats.workers_lost,
            stats.requeued,
            stats.gave_up,
            stats.duplicates_dropped,
        )

    async def _dispatch(self, units: list[Unit], record: Record) -> DispatchStats:
        import ray

        cluster_cpus = int(ray.cluster_resources().get("CPU", 1))
        count = max(1, min(self.workers or cluster_cpus, self.options.concurrency, len(units)))
        split = worker_split(self.options.concurrency, count)
        spawn = _spawner(self.run_plan, self.options, split, ray.put(self.samples))
        dispatcher = Dispatcher(spawn, count, self.shard_size or max(1, min(split)), record)
        return await dispatcher.run(units)

    async def close(self) -> None:
        """Nothing to release: the workers end with the dispatch."""


async def execute_on_ray(
    plan: RunPlan,
    out_dir: Path,
    options: RunOptions | None = None,
    address: str | None = None,
    workers: int | None = None,
    shard_size: int | None = None,
) -> RunSummary:
    """Run ``plan`` into ``out_dir`` on a Ray cluster, skipping samples it already logged; returns the summary.

    ``workers``: number of worker actors (default: the cluster's CPUs, at most ``options.concurrency``);
    ``shard_size``: samples per request to a worker (default: the worker's concurrency bound).
    """
    options = options or RunOptions()
    executor = RayExecutor(plan, options, address=address, workers=workers, shard_size=shard_size)
    return await run_lifecycle(load_run(plan), out_dir, options, executor)
