"""One run lifecycle for every executor: the local runner, Ray, and (its reading half) rescore.

:func:`run_lifecycle` builds the plan's tasks, loads each task's samples once, opens the run
directory, lets the executor plan its methods, hands it the samples not yet logged, records each
result as it arrives with progress, and writes the summary in ``finally``, whatever happened.
An executor (:class:`RunExecutor`) supplies only how items are solved.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import islice
from pathlib import Path
from typing import Any, Protocol

from harness import __version__
from harness.errors import ConfigError
from harness.plan import PreparedTask, RunPlan, build_task, config_of
from harness.progress import RunProgress
from harness.run_options import RunOptions
from harness.store import RunStore, result_key
from harness.summary import summarize_tasks
from harness.task import AnyTask, GenerationSettings
from harness.types import RunSummary, Sample, SampleResult

WorkItem = tuple[AnyTask, Sample, GenerationSettings]
"""One sample to solve: its task, the sample and the task's effective settings."""

Record = Callable[[SampleResult], None]


def _sample_identity(sample: Sample) -> bytes:
    """The canonical bytes of what a sample is scored on: its id, input and target."""
    try:
        return sample.model_dump_json(include={"id", "input", "target"}).encode()
    except ValueError:
        body = sample.model_dump(mode="python", include={"id", "input", "target"})
        return json.dumps(body, sort_keys=True, default=repr).encode()


def load_samples(task: AnyTask, limit: int | None) -> tuple[list[Sample], str]:
    """The first ``limit`` samples of ``task`` and their digest (SHA-256 over ids, inputs and targets).

    The digest is computed in the same pass that loads the samples; duplicate ids are a
    configuration error.
    """
    samples = list(islice(task.samples(), limit))
    seen: set[str] = set()
    digest = hashlib.sha256()
    for sample in samples:
        if sample.id in seen:
            raise ConfigError(f"task {task.name}: duplicate sample id {sample.id!r}; ids must be unique to resume")
        seen.add(sample.id)
        digest.update(_sample_identity(sample) + b"\n")
    return samples, "sha256:" + digest.hexdigest()


def limited_samples(task: AnyTask, limit: int | None) -> list[Sample]:
    """The first ``limit`` samples of ``task``; duplicate ids are a configuration error."""
    return load_samples(task, limit)[0]


@dataclass(frozen=True)
class LoadedRun:
    """A plan's tasks built, their samples loaded once, and the config that fingerprints both."""

    plan: RunPlan
    prepared: list[PreparedTask]
    samples: dict[str, list[Sample]]
    config: dict[str, Any]

    def pending(self, done: set[str]) -> tuple[list[WorkItem], int]:
        """The samples not in ``done`` (keys of logged samples), in plan order, and how many were."""
        items: list[WorkItem] = []
        skipped = 0
        for entry in self.prepared:
            for sample in self.samples[entry.task.name]:
                if result_key(entry.task.name, sample.id) in done:
                    skipped += 1
                else:
                    items.append((entry.task, sample, entry.settings))
        return items, skipped


def load_run(plan: RunPlan) -> LoadedRun:
    """Build the plan's tasks, load each task's samples once and make the run's config from them."""
    from harness.registry import output_cap

    cap = output_cap(plan.model)
    prepared = [build_task(task_plan, cap) for task_plan in plan.tasks]
    samples: dict[str, list[Sample]] = {}
    digests: dict[str, str] = {}
    for entry in prepared:
        samples[entry.task.name], digests[entry.task.name] = load_samples(entry.task, entry.plan.limit)
    return LoadedRun(plan, prepared, samples, config_of(plan, prepared, digests))


def summarize_run(
    store: RunStore, plan: RunPlan, prepared: list[PreparedTask], config_hash: str, started_at: str, complete: bool
) -> RunSummary:
    """The run's summary from its log (read once for every task)."""
    return RunSummary(
        run_id=store.path.name,
        model=plan.model,
        methods=plan.methods,
        suite=plan.suite,
        seed=plan.seed,
        harness_version=__version__,
        config_hash=config_hash,
        tasks=summarize_tasks([p.task for p in prepared], store.results(), plan.seed),
        started_at=started_at,
        finished_at=now(),
        complete=complete,
    )


def now() -> str:
    """The time now, as run files record it."""
    return datetime.now(UTC).isoformat(timespec="seconds")


class RunExecutor(Protocol):
    """How a run's samples are solved; :func:`run_lifecycle` does everything else."""

    async def start(self, run: LoadedRun) -> None:
        """Build what solving needs; runs before the run directory is opened, so a bad model touches nothing."""

    async def plan(self, run: LoadedRun) -> None:
        """Let batch-planning methods see every sample of each task, logged ones included."""

    async def solve(self, items: list[WorkItem], record: Record) -> None:
        """Solve and score ``items``, handing each result to ``record`` as it arrives."""

    async def close(self) -> None:
        """Release what ``start`` built; called once, whatever happened."""


async def run_lifecycle(run: LoadedRun, out_dir: Path, options: RunOptions, executor: RunExecutor) -> RunSummary:
    """Run ``run`` (:func:`load_run`'s) into ``out_dir`` with ``executor``, skipping samples already logged.

    Returns the summary. The directory is locked for the whole run; with ``options.retry_errors``
    samples whose last record is an ``error`` run again. The summary is written however the run ends.
    """
    plan = run.plan
    await executor.start(run)
    store = RunStore(out_dir)
    try:
        done = store.open(run.config, retry_errors=options.retry_errors)
    except BaseException:
        await executor.close()
        raise
    started_at = now()
    complete = False
    try:
        await executor.plan(run)
        items, skipped = run.pending(done)
        with RunProgress(total=len(items) + skipped, done=skipped, enabled=options.progress) as progress:

            def record(result: SampleResult) -> None:
                store.append(result)
                progress.advance(result)

            await executor.solve(items, record)
        complete = True
    finally:
        try:
            store.close_log()
            await executor.close()
            store.write_summary(
                summarize_run(store, plan, run.prepared, run.config["config_hash"], started_at, complete)
            )
        finally:
            store.close()
    return store.read_summary()
