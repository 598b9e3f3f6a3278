"""One of our tasks as an inspect-ai ``Task``.

- Samples become inspect samples; the whole sample rides along in the metadata so our
  solver and scorer see exactly what ``frontier run`` would.
- The solver runs the task's own ``solve()`` with a SolveContext whose model is the eval's
  model (``get_model()``) behind our calling layer, so multi-turn tasks with tools and
  simulated users run unchanged. Generation defaults come from the task's settings as the
  inspect task's config, so ``inspect eval --temperature ...`` overrides them as usual.
- The scorer calls the task's ``score()``. Its value is ``{"value": v}``: ``v`` is NaN, inspect's
  unscored sentinel, for unscored and error outcomes; the dict keeps those samples visible to
  the metric, which rebuilds our SampleResults and reports the task's own ``aggregate()``
  (each metric with ``_ci_low``, ``_ci_high`` and ``_n``), so the numbers equal ``frontier run``'s.
"""

from __future__ import annotations

import json
import math
from typing import Any

from inspect_ai import Task as InspectTask
from inspect_ai.dataset import MemoryDataset
from inspect_ai.dataset import Sample as InspectSample
from inspect_ai.model import ChatMessageAssistant, GenerateConfig, ModelOutput, get_model
from inspect_ai.scorer import Metric, SampleScore, Scorer, Target, metric, scorer
from inspect_ai.scorer import Score as InspectScore
from inspect_ai.solver import Generate, Solver, TaskState, solver

from harness.calls import CallingAdapter, RetryPolicy
from harness.context import SampleContext, current_sample
from harness.executors.scoring import score_safely
from harness.interop.inspect_adapter import InspectModelAdapter
from harness.interop.inspect_convert import from_inspect_messages, to_inspect_messages
from harness.runner import limited_samples, sample_seed
from harness.task import SolveContext, Task
from harness.types import MetricValue, Output, Sample, SampleResult, Score, Usage, summed_cost

SAMPLE_KEY = "frontier_sample"
OUTPUT_KEY = "frontier_output"
USAGE_KEY = "frontier_usage"
RESULT_KEY = "frontier_result"


def to_inspect_sample(sample: Sample) -> InspectSample:
    """Our sample as an inspect sample; the original travels in ``metadata['frontier_sample']``."""
    data = sample.input if isinstance(sample.input, str) else to_inspect_messages(sample.input)
    target = "" if sample.target is None else str(sample.target)
    return InspectSample(id=sample.id, input=data, target=target, metadata={SAMPLE_KEY: sample.model_dump(mode="json")})


def sample_of(metadata: dict[str, Any], fallback_id: str | int | None) -> Sample:
    """Our sample back from inspect sample metadata."""
    if SAMPLE_KEY not in metadata:
        raise ValueError(f"inspect sample {fallback_id!r} was not built by frontier (no {SAMPLE_KEY} metadata)")
    return Sample.model_validate(metadata[SAMPLE_KEY])


def generate_config(task: Task) -> GenerateConfig:
    """The task's generation settings as inspect's task-level GenerateConfig."""
    settings = task.settings
    return GenerateConfig(
        max_tokens=settings.max_tokens,
        temperature=settings.temperature,
        top_p=settings.top_p,
        seed=settings.seed,
        stop_seqs=list(settings.stop) or None,
        reasoning_tokens=settings.reasoning_budget,
    )


_TASKS: dict[tuple[str, str], Task] = {}


def task_instance(name: str, args: dict[str, Any]) -> Task:
    """Our task ``name`` built with ``args`` (cached: solver, scorer and metric share one instance)."""
    from harness.registry import resolve_task

    key = (name, json.dumps(args, sort_keys=True))
    if key not in _TASKS:
        _TASKS[key] = resolve_task(name).create(**args)
    return _TASKS[key]


def _remember(task: Task) -> dict[str, Any]:
    args = task.args.model_dump(mode="json")
    _TASKS.setdefault((task.name, json.dumps(args, sort_keys=True)), task)
    return args


@solver
def frontier_solve(task: str, args: dict[str, Any], seed: int = 0) -> Solver:
    """Run our task's own ``solve()`` against the eval's model (``get_model()``)."""
    ours = task_instance(task, args)

    async def solve(state: TaskState, generate: Generate) -> TaskState:
        sample = sample_of(state.metadata, state.sample_id)
        model = get_model()
        bridge = InspectModelAdapter(model, f"inspect/{model}", base=ours.settings, wrap_errors=False)
        calling = CallingAdapter(bridge, retry=RetryPolicy(max_retries=0), timeout_s=None)
        context = SampleContext(task=ours, sample=sample, seed=sample_seed(seed, ours.name, sample.id))
        token = current_sample.set(context)
        try:
            output = await ours.solve(sample, SolveContext(calling, ours.settings, context.seed))
        finally:
            current_sample.reset(token)
        usage = Usage.total(call.generation.usage for call in context.calls)
        costs = [call.generation.cost_usd for call in context.calls]
        state.store.set(OUTPUT_KEY, output.model_dump(mode="json"))
        state.store.set(USAGE_KEY, {"usage": usage.model_dump(), "costs": costs})
        if output.trajectory:
            state.messages = to_inspect_messages(output.trajectory)
        else:
            state.messages.append(ChatMessageAssistant(content=output.text, model=str(model)))
        state.output = ModelOutput.from_content(model=str(model), content=output.text)
        return state

    return solve


async def score_output(task: Task, sample: Sample, output: Output) -> Score:
    """``task.score`` as the runner calls it: in a thread when CPU-heavy; a scorer bug is an error outcome."""
    return await score_safely(task, sample, output)


def to_inspect_score(score: Score, result: SampleResult) -> InspectScore:
    """Our score as inspect's; unscored and error outcomes carry NaN and a ``reason``."""
    value = score.value if score.outcome == "scored" and score.value is not None else math.nan
    return InspectScore(
        value={"value": float(value)},
        answer=score.answer,
        explanation=score.explanation or None,
        reason=None if score.outcome == "scored" else score.outcome,
        metadata={RESULT_KEY: result.model_dump(mode="json")},
    )


def result_of(
    sample: Sample, task_name: str, output: Output, score: Score, usage_record: dict[str, Any]
) -> SampleResult:
    """The SampleResult our aggregates read (input and calls left out to keep inspect logs small)."""
    cost_usd, cost_known = summed_cost(usage_record.get("costs") or [])
    return SampleResult(
        sample_id=sample.id,
        task=task_name,
        input="",
        target=sample.target,
        output=output.model_copy(update={"trajectory": ()}),
        score=score,
        usage=Usage.model_validate(usage_record.get("usage") or {}),
        cost_usd=cost_usd,
        cost_known=cost_known,
        metadata=sample.metadata,
    )


def metric_values(values: dict[str, MetricValue]) -> dict[str, float | None]:
    """Our metrics flattened for inspect: each value with ``_ci_low``, ``_ci_high`` and ``_n``."""
    flat: dict[str, float | None] = {}
    for name, value in values.items():
        flat[name] = value.value
        flat[f"{name}_ci_low"] = value.ci_low
        flat[f"{name}_ci_high"] = value.ci_high
        flat[f"{name}_n"] = float(value.n)
    return flat


@metric
def frontier(task: str, args: dict[str, Any], seed: int = 0) -> Metric:
    """Our task's ``aggregate()`` over the SampleResults rebuilt from the scores."""
    ours = task_instance(task, args)

    def compute(scores: list[SampleScore]) -> dict[str, float | None]:
        results = [
            SampleResult.model_validate(s.score.metadata[RESULT_KEY])
            for s in scores
            if s.score.metadata and RESULT_KEY in s.score.metadata
        ]
        return metric_values(ours.aggregate(results, seed=seed))

    return compute


@scorer(metrics=[])
def frontier_score(task: str, args: dict[str, Any]) -> Scorer:
    """Our task's ``score()`` on what our solver produced (or on the plain completion of another solver)."""
    ours = task_instance(task, args)

    async def score(state: TaskState, target: Target) -> InspectScore:
        sample = sample_of(state.metadata, state.sample_id)
        raw = state.store.get(OUTPUT_KEY)
        if raw is not None:
            output = Output.model_validate(raw)
        else:
            output = Output(text=state.output.completion, trajectory=from_inspect_messages(state.messages))
        judged = await score_output(ours, sample, output)
        return to_inspect_score(judged, result_of(sample, ours.name, output, judged, state.store.get(USAGE_KEY) or {}))

    return score


def inspect_task(task: Task, limit: int | None = None, seed: int = 0, name: str | None = None) -> InspectTask:
    """``task`` as an inspect Task (its first ``limit`` samples), solved by its own ``solve()``."""
    args = _remember(task)
    samples = [to_inspect_sample(s) for s in limited_samples(task, limit)]
    return InspectTask(
        dataset=MemoryDataset(samples, name=task.name),
        solver=frontier_solve(task.name, args, seed),
        scorer=frontier_score(task.name, args),
        metrics=[frontier(task.name, args, seed)],
        config=generate_config(task),
        name=name,
        version=task.version,
        metadata={"frontier_task": task.fingerprint()},
    )
