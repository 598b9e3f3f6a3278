"""``execute_on_ray``: the Ray counterpart of ``harness.runner.execute``, with the same contract.

The driver (this process) plans the run, opens the run directory and is its only writer;
Ray actors (:class:`~harness.executors.ray_worker.SampleWorker`), spread over the cluster,
each build their own adapter and solve the shards the dispatcher hands them; CPU-heavy
scoring runs as Ray tasks. Results come back to the driver, which drops any duplicate and
appends each to ``samples.jsonl`` as it arrives, so resume, the summary and the log format
are exactly the local runner's. ``--concurrency`` stays the bound for the whole run: it is
split across the workers.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from harness.executors.dispatch import Dispatcher, DispatchStats, Unit, WorkerLost
from harness.executors.ray_session import ray_session
from harness.plan import RunPlan
from harness.progress import RunProgress
from harness.runner import RunOptions, _close, _pending, build_model, load_run, summarize_run
from harness.store import RunStore
from harness.types import RunSummary, SampleResult

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

        try:
            await asyncio.wait_for(self.actor.close.remote(), timeout=10)
        except Exception:
            pass
        ray.kill(self.actor)


def _spawner(plan: RunPlan, options: RunOptions, split: list[int]) -> Any:
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
            .remote(plan, options, split[slot])
        )
        return RayWorker(actor)

    return spawn


async def execute_on_ray(
    plan: RunPlan,
    out_dir: Path,
    options: RunOptions = RunOptions(),
    address: str | None = None,
    workers: int | None = None,
    shard_size: int | None = None,
) -> RunSummary:
    """Run ``plan`` into ``out_dir`` on a Ray cluster, skipping samples it already logged; returns the summary.

    ``workers``: number of worker actors (default: the cluster's CPUs, at most ``options.concurrency``);
    ``shard_size``: samples per request to a worker (default: the worker's concurrency bound).
    """
    if workers is not None and workers < 1:
        raise ValueError(f"workers must be at least 1, got {workers}")
    loaded = load_run(plan)
    prepared, config = loaded.prepared, loaded.config
    await _close(build_model(plan, options))
    store = RunStore(out_dir)
    done = store.open(config, retry_errors=options.retry_errors)
    started_at = datetime.now(UTC).isoformat(timespec="seconds")
    complete = False
    try:
        items, skipped = _pending(prepared, done, loaded.samples)
        index = {entry.task.name: position for position, entry in enumerate(prepared)}
        units = [Unit(index[task.name], task.name, sample) for task, sample, _ in items]
        with RunProgress(total=len(units) + skipped, done=skipped, enabled=options.progress) as progress:

            def record(result: SampleResult) -> None:
                store.append(result)
                progress.advance(result)

            if units:
                with ray_session(address):
                    stats = await _dispatch(plan, options, units, workers, shard_size, record)
                log.info(
                    "ray run: %d shards, %d workers lost, %d samples retried, %d given up, %d duplicates dropped",
                    stats.shards,
                    stats.workers_lost,
                    stats.requeued,
                    stats.gave_up,
                    stats.duplicates_dropped,
                )
        complete = True
    finally:
        try:
            store.close_log()
            store.write_summary(summarize_run(store, plan, prepared, config["config_hash"], started_at, complete))
        finally:
            store.close()
    return store.read_summary()


async def _dispatch(
    plan: RunPlan, options: RunOptions, units: list[Unit], workers: int | None, shard_size: int | None, record: Any
) -> DispatchStats:
    import ray

    cluster_cpus = int(ray.cluster_resources().get("CPU", 1))
    count = max(1, min(workers or cluster_cpus, options.concurrency, len(units)))
    split = worker_split(options.concurrency, count)
    dispatcher = Dispatcher(_spawner(plan, options, split), count, shard_size or max(1, min(split)), record)
    return await dispatcher.run(units)
