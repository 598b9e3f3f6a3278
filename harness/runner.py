"""The runner: stream samples through a task's solver and scorer with bounded concurrency.

``evaluate`` runs one task in memory (for tests and notebooks); ``execute`` runs a
whole plan into a run directory, resuming whatever that directory already logged.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import math
import time
import traceback
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import islice
from pathlib import Path
from typing import Any

from harness import __version__
from harness.adapters.base import MethodAdapter, ModelAdapter, close_adapter
from harness.calls import CallingAdapter, CallSettings, RetryPolicy, using_call_settings
from harness.context import SampleContext, current_sample
from harness.errors import AdapterError, ConfigError
from harness.executors.scoring import score_safely
from harness.methods.planning import plan_methods
from harness.plan import PreparedTask, RunPlan, build_task, config_of
from harness.progress import RunProgress
from harness.run_options import RunOptions
from harness.store import RunStore, result_key
from harness.summary import summarize_tasks
from harness.task import GenerationSettings, SolveContext, Task
from harness.types import Output, RunSummary, Sample, SampleResult, Score, Usage


def sample_seed(seed: int, task: str, sample_id: str) -> int:
    """A per-sample seed that does not depend on the order samples finish in."""
    digest = hashlib.sha256(f"{seed}|{task}|{sample_id}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


async def solve_sample(
    task: Task, sample: Sample, settings: GenerationSettings, model: ModelAdapter, seed: int
) -> SampleResult:
    """Solve and score one sample; failures become an ``error`` score, never an exception."""
    context = SampleContext(task=task, sample=sample, seed=sample_seed(seed, task.name, sample.id))
    token = current_sample.set(context)
    started = time.perf_counter()
    output = Output()
    try:
        output = await task.solve(sample, SolveContext(model, settings, context.seed))
        score = await score_safely(task, sample, output)
    except ConfigError:
        raise
    except AdapterError as exc:
        score = Score.error(f"model call failed: {exc}", stage="model")
    except Exception as exc:
        score = Score.error(f"solver failed: {type(exc).__name__}: {exc}", traceback=traceback.format_exc(limit=5))
    finally:
        current_sample.reset(token)
    usage = sum((call.generation.usage for call in context.calls), Usage())
    costs = [call.generation.cost_usd for call in context.calls]
    known = [c for c in costs if c is not None]
    return SampleResult(
        sample_id=sample.id,
        task=task.name,
        input=sample.input,
        target=sample.target,
        output=output,
        score=score,
        calls=tuple(context.calls),
        usage=usage,
        cost_usd=math.fsum(known) if known else None,
        cost_known=len(known) == len(costs),
        retries=context.retries,
        latency_s=time.perf_counter() - started,
        metadata=sample.metadata,
        method_data=context.method_data,
    )


WorkItem = tuple[Task, Sample, GenerationSettings]


async def run_items(
    items: Iterable[WorkItem],
    model: ModelAdapter,
    seed: int,
    concurrency: int,
    on_result: Callable[[SampleResult], None],
) -> None:
    """Run ``items`` with at most ``concurrency`` in flight, handing each result to ``on_result``."""
    iterator = iter(items)

    async def worker() -> None:
        for task, sample, settings in iterator:
            on_result(await solve_sample(task, sample, settings, model, seed))

    await asyncio.gather(*(worker() for _ in range(max(1, concurrency))))


def _sample_identity(sample: Sample) -> bytes:
    """The canonical bytes of what a sample is scored on: its id, input and target."""
    try:
        return sample.model_dump_json(include={"id", "input", "target"}).encode()
    except ValueError:
        body = sample.model_dump(mode="python", include={"id", "input", "target"})
        return json.dumps(body, sort_keys=True, default=repr).encode()


def load_samples(task: Task, limit: int | None) -> tuple[list[Sample], str]:
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


def limited_samples(task: Task, limit: int | None) -> list[Sample]:
    """The first ``limit`` samples of ``task``; duplicate ids are a configuration error."""
    return load_samples(task, limit)[0]


@dataclass(frozen=True)
class LoadedRun:
    """A plan's tasks built, their samples loaded once, and the config that fingerprints both."""

    prepared: list[PreparedTask]
    samples: dict[str, list[Sample]]
    config: dict[str, Any]


def load_run(plan: RunPlan) -> LoadedRun:
    """Build the plan's tasks, load each task's samples once and make the run's config from them."""
    prepared = [build_task(task_plan) for task_plan in plan.tasks]
    samples: dict[str, list[Sample]] = {}
    digests: dict[str, str] = {}
    for entry in prepared:
        samples[entry.task.name], digests[entry.task.name] = load_samples(entry.task, entry.plan.limit)
    return LoadedRun(prepared, samples, config_of(plan, prepared, digests))


async def evaluate(
    task: Task,
    adapter: ModelAdapter,
    limit: int | None = None,
    seed: int = 0,
    concurrency: int = RunOptions.concurrency,
    settings: GenerationSettings | None = None,
    retry: RetryPolicy | None = None,
) -> list[SampleResult]:
    """Run one task in memory and return its results in sample order (calls as a run's, without a cache)."""
    calls = RunOptions(concurrency=concurrency, retry=retry or RetryPolicy()).call_settings(seed)
    model = adapter if isinstance(adapter, (CallingAdapter, MethodAdapter)) else calls.wrap(adapter)
    samples = limited_samples(task, limit)
    order = {sample.id: index for index, sample in enumerate(samples)}
    results: list[SampleResult] = []
    try:
        with using_call_settings(calls):
            await plan_methods(model, samples, task=task)
            await run_items(
                ((task, s, settings or task.settings) for s in samples), model, seed, concurrency, results.append
            )
    finally:
        await close_adapter(model)
    return sorted(results, key=lambda r: order[r.sample_id])


def build_model(plan: RunPlan, options: RunOptions, calls: CallSettings | None = None) -> ModelAdapter:
    """The plan's adapter, behind the calling layer, wrapped by its methods (innermost first).

    ``calls`` (default: ``options.call_settings(plan.seed)``) are active while the methods are
    built, so a method's own model (a PRM judge) is called as the run's model is.
    """
    from harness.registry import resolve_method

    calls = calls or options.call_settings(plan.seed)
    model: ModelAdapter = calls.resolve(plan.model, **plan.model_options)
    with using_call_settings(calls):
        for spec in plan.methods:
            model = resolve_method(spec)(model)
    return model


def summarize_run(
    store: RunStore, plan: RunPlan, prepared: list[PreparedTask], config_hash: str, started_at: str, complete: bool
) -> RunSummary:
    """The run's summary from its log."""
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
        finished_at=datetime.now(UTC).isoformat(timespec="seconds"),
        complete=complete,
    )


def _pending(
    prepared: list[PreparedTask], done: set[str], samples: dict[str, list[Sample]] | None = None
) -> tuple[list[WorkItem], int]:
    items: list[WorkItem] = []
    skipped = 0
    for entry in prepared:
        loaded = samples[entry.task.name] if samples is not None else limited_samples(entry.task, entry.plan.limit)
        for sample in loaded:
            if result_key(entry.task.name, sample.id) in done:
                skipped += 1
            else:
                items.append((entry.task, sample, entry.settings))
    return items, skipped


async def execute(plan: RunPlan, out_dir: Path, options: RunOptions | None = None) -> RunSummary:
    """Run ``plan`` into ``out_dir``, skipping samples it already logged; returns the summary.

    The directory is locked for the whole run; with ``options.retry_errors`` samples whose
    last record is an ``error`` run again.
    """
    options = options or RunOptions()
    loaded = load_run(plan)
    prepared, config = loaded.prepared, loaded.config
    calls = options.call_settings(plan.seed)
    model = build_model(plan, options, calls)
    store = RunStore(out_dir)
    try:
        done = store.open(config, retry_errors=options.retry_errors)
    except BaseException:
        await close_adapter(model)
        raise
    started_at = datetime.now(UTC).isoformat(timespec="seconds")
    complete = False
    try:
        with using_call_settings(calls):
            for entry in prepared:
                await plan_methods(model, loaded.samples[entry.task.name], task=entry.task)
        items, skipped = _pending(prepared, done, loaded.samples)
        with RunProgress(total=len(items) + skipped, done=skipped, enabled=options.progress) as progress:

            def record(result: SampleResult) -> None:
                store.append(result)
                progress.advance(result)

            from harness.executors.local_pool import local_pool_scoring

            with local_pool_scoring(), using_call_settings(calls):
                await run_items(items, model, plan.seed, options.concurrency, record)
        complete = True
    finally:
        try:
            store.close_log()
            await close_adapter(model)
            store.write_summary(summarize_run(store, plan, prepared, config["config_hash"], started_at, complete))
        finally:
            store.close()
    return store.read_summary()
