"""The runner: stream samples through a task's solver and scorer with bounded concurrency.

``evaluate`` runs one task in memory (for tests and notebooks); ``execute`` runs a
whole plan into a run directory, resuming whatever that directory already logged.
"""

from __future__ import annotations

import asyncio
import hashlib
import time
import traceback
from collections.abc import Iterable
from pathlib import Path

from harness.adapters.base import MethodAdapter, ModelAdapter, close_adapter
from harness.calls import CallingAdapter, CallSettings, RetryPolicy, using_call_settings
from harness.context import SampleContext, current_sample
from harness.errors import AdapterError, ConfigError
from harness.executors.scoring import score_safely
from harness.lifecycle import LoadedRun, Record, WorkItem, limited_samples, load_run, run_lifecycle
from harness.methods.planning import plan_methods
from harness.plan import RunPlan
from harness.run_options import RunOptions
from harness.task import GenerationSettings, SolveContext, Task
from harness.types import Output, RunSummary, Sample, SampleResult, Score, Usage, summed_cost

__all__ = [
    "LocalExecutor",
    "RunOptions",
    "WorkItem",
    "build_model",
    "evaluate",
    "execute",
    "limited_samples",
    "run_items",
    "sample_seed",
    "solve_sample",
]


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
    context.transcript.spans(output.trajectory)  # an agent's closing turns join its transcript, stored once
    cost_usd, cost_known = summed_cost([call.generation.cost_usd for call in context.calls])
    return SampleResult(
        sample_id=sample.id,
        task=task.name,
        input=sample.input,
        target=sample.target,
        output=output,
        score=score,
        calls=tuple(context.calls),
        usage=Usage.total(call.generation.usage for call in context.calls),
        cost_usd=cost_usd,
        cost_known=cost_known,
        retries=context.retries,
        latency_s=time.perf_counter() - started,
        metadata=sample.metadata,
        method_data=context.method_data,
        transcript=tuple(context.transcript.messages),
    )


async def run_items(
    items: Iterable[WorkItem],
    model: ModelAdapter,
    seed: int,
    concurrency: int,
    on_result: Record,
) -> None:
    """Run ``items`` with at most ``concurrency`` in flight, handing each result to ``on_result``."""
    iterator = iter(items)

    async def worker() -> None:
        for task, sample, settings in iterator:
            on_result(await solve_sample(task, sample, settings, model, seed))

    await asyncio.gather(*(worker() for _ in range(max(1, concurrency))))


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
    calls = CallSettings.of_run(RunOptions(concurrency=concurrency, retry=retry or RetryPolicy()), seed)
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

    ``calls`` (default: ``CallSettings.of_run(options, plan.seed)``) are active while the methods are
    built, so a method's own model (a PRM judge) is called as the run's model is.
    """
    from harness.registry import resolve_method

    calls = calls or CallSettings.of_run(options, plan.seed)
    model: ModelAdapter = calls.resolve(plan.model, **plan.model_options)
    with using_call_settings(calls):
        for spec in plan.methods:
            model = resolve_method(spec)(model)
    return model


class LocalExecutor:
    """Solves a run's samples in this process: the plan's model, at most ``options.concurrency`` samples
    in flight, CPU-heavy scoring in a local process pool."""

    def __init__(self, plan: RunPlan, options: RunOptions) -> None:
        self.run_plan = plan
        self.options = options
        self.calls = CallSettings.of_run(options, plan.seed)
        self.model: ModelAdapter | None = None

    async def start(self, run: LoadedRun) -> None:
        """Build the model (its adapter, the calling layer and the methods)."""
        self.model = build_model(self.run_plan, self.options, self.calls)

    async def plan(self, run: LoadedRun) -> None:
        """Give each task's samples to the methods that plan over the whole batch (CLEAR)."""
        assert self.model is not None, "start() first"
        with using_call_settings(self.calls):
            for entry in run.prepared:
                await plan_methods(self.model, run.samples[entry.task.name], task=entry.task)

    async def solve(self, items: list[WorkItem], record: Record) -> None:
        """Solve ``items`` with the run's concurrency, scoring CPU-heavy tasks in a process pool."""
        from harness.executors.local_pool import local_pool_scoring

        assert self.model is not None, "start() first"
        # batching: every sample in flight, so their requests wait in the same batches
        concurrency = len(items) if self.calls.batch is not None else self.options.concurrency
        with local_pool_scoring(), using_call_settings(self.calls):
            await run_items(items, self.model, self.run_plan.seed, concurrency, record)

    async def close(self) -> None:
        """Close the model's connections."""
        if self.model is not None:
            await close_adapter(self.model)
            self.model = None
        if self.calls.batch is not None:
            await self.calls.batch.aclose()


async def execute(plan: RunPlan, out_dir: Path, options: RunOptions | None = None) -> RunSummary:
    """Run ``plan`` into ``out_dir`` in this process, skipping samples it already logged; returns the summary.

    The directory is locked for the whole run; with ``options.retry_errors`` samples whose
    last record is an ``error`` run again (see :func:`harness.lifecycle.run_lifecycle`).
    """
    options = options or RunOptions()
    return await run_lifecycle(load_run(plan), out_dir, options, LocalExecutor(plan, options))
