"""``frontier export lm-eval DIR``: single-turn suite tasks as lm-evaluation-harness tasks.

For each task: ``frontier_<name>.jsonl`` (its samples: prompt, optional system message,
target and the whole sample as JSON), ``frontier_<name>.yaml`` (``generate_until`` with the
task's generation settings, ``process_results`` and one aggregation per metric part) and one
shared ``utils.py`` whose functions call our scorer and aggregates
(``harness.interop.lm_eval_runtime``). Run with ``lm_eval --include_path DIR --tasks
frontier_<name> --apply_chat_template ...``.

A task is single-turn when its ``solve()`` makes exactly one request, without tools, for the
sample's own messages (at most a system and a user message), and returns that text; this
is checked by running ``solve()`` once on the first sample against a recording model.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from harness.errors import ConfigError
from harness.interop.lm_eval_runtime import PARTS, SAMPLE_FIELD
from harness.interop.names import lm_eval_name
from harness.task import GenerationSettings, SolveContext, Task
from harness.types import GenerateRequest, Generation, Output, Sample, SampleResult, Score


@dataclass(frozen=True)
class Exported:
    """One task written (``reason`` empty) or skipped (``reason`` says why)."""

    task: str
    lm_eval_name: str
    samples: int = 0
    metrics: tuple[str, ...] = ()
    reason: str = ""


class FunctionRef(str):
    """A YAML ``!function utils.<name>`` reference."""


class _Dumper(yaml.SafeDumper):
    pass


_Dumper.add_representer(FunctionRef, lambda dumper, ref: dumper.represent_scalar("!function", str(ref)))


class _RecordingModel:
    """Answers every request with the task's reference output and keeps the requests."""

    name = "export-probe"
    capabilities = frozenset({"chat", "tools", "logprobs"})

    def __init__(self, task: Task, sample: Sample) -> None:
        self.task, self.sample = task, sample
        self.requests: list[GenerateRequest] = []

    async def generate(self, request: GenerateRequest) -> Generation:
        self.requests.append(request)
        answer = self.task.reference_output(self.sample, request)
        return answer if isinstance(answer, Generation) else Generation(text=str(answer))


def single_turn_request(task: Task, sample: Sample) -> GenerateRequest | str:
    """The one request ``task.solve`` makes for ``sample``, or why the task is not single-turn."""
    probe = _RecordingModel(task, sample)
    try:
        output = asyncio.run(task.solve(sample, SolveContext(probe, task.settings, seed=0)))
    except Exception as exc:
        return f"solve() failed on a probe: {type(exc).__name__}: {exc}"
    if len(probe.requests) != 1:
        return f"solve() makes {len(probe.requests)} model calls"
    request = probe.requests[0]
    if request.tools:
        return "solve() offers tools"
    if request.messages != sample.messages():
        return "solve() changes the sample's messages"
    expected = probe.task.reference_output(sample, request)
    text = expected.text if isinstance(expected, Generation) else str(expected)
    if output != Output(text=text):
        return "solve() returns more than the generated text"
    return request


def _prompt_parts(sample: Sample) -> tuple[str, str] | str:
    """(system, user) of a sample, or why it has another shape."""
    messages = sample.messages()
    roles = [m.role for m in messages]
    if roles == ["user"]:
        return "", messages[0].content or ""
    if roles == ["system", "user"]:
        return messages[0].content or "", messages[1].content or ""
    return f"sample {sample.id} has messages {roles}; only [system,] user exports"


def metric_names(task: Task, samples: list[Sample]) -> tuple[str, ...]:
    """The names ``task.aggregate`` reports for these samples (from placeholder results of each outcome)."""
    results = [
        SampleResult(sample_id=s.id, task=task.name, input="", target=s.target, score=score, metadata=s.metadata)
        for s in samples
        for score in (Score.of(True), Score.unscored("placeholder"))
    ]
    return tuple(sorted(task.aggregate(results)))


def _generation_kwargs(settings: GenerationSettings) -> dict[str, Any]:
    kwargs: dict[str, Any] = {"until": list(settings.stop), "do_sample": bool(settings.temperature)}
    if settings.max_tokens is not None:
        kwargs["max_gen_toks"] = settings.max_tokens
    kwargs["temperature"] = settings.temperature or 0.0
    if settings.top_p is not None:
        kwargs["top_p"] = settings.top_p
    return kwargs


def export_task(
    task: Task, args: dict[str, Any], out_dir: Path, limit: int | None = None
) -> tuple[Exported, list[str]]:
    """Write one task's JSONL and YAML; returns what was written and its utils.py lines."""
    from harness.runner import limited_samples

    name = lm_eval_name(task.name)
    samples = limited_samples(task, limit)
    if not samples:
        return Exported(task.name, name, reason="the task has no samples"), []
    probe = single_turn_request(task, samples[0])
    if isinstance(probe, str):
        return Exported(task.name, name, reason=probe), []
    rows = []
    for sample in samples:
        parts = _prompt_parts(sample)
        if isinstance(parts, str):
            return Exported(task.name, name, reason=parts), []
        rows.append(
            {
                "id": sample.id,
                "system": parts[0],
                "prompt": parts[1],
                "target": "" if sample.target is None else str(sample.target),
                SAMPLE_FIELD: sample.model_dump_json(),
            }
        )
    metrics = metric_names(task, samples)
    data_file = out_dir / f"{name}.jsonl"
    data_file.write_text("".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows), encoding="utf-8")
    call = f"{json.dumps(task.name)}, {json.dumps(args, sort_keys=True)}"
    keys = [metric if part == "value" else f"{metric}_{part}" for metric in metrics for part in PARTS]
    lines = [
        f"dataset_{name} = dataset_from(HERE / {json.dumps(data_file.name)})",
        f"process_results_{name} = process_results({call}, {json.dumps(keys)})",
    ]
    metric_list = []
    for index, metric in enumerate(metrics):
        for part in PARTS:
            function = f"agg_{name}_{index}_{part}"
            lines.append(f"{function} = aggregation({call}, {json.dumps(metric)}, {json.dumps(part)})")
            metric_list.append(
                {
                    "metric": metric if part == "value" else f"{metric}_{part}",
                    "aggregation": FunctionRef(f"utils.{function}"),
                    "higher_is_better": True,
                }
            )
    config: dict[str, Any] = {
        "task": name,
        "dataset_path": "json",
        "custom_dataset": FunctionRef(f"utils.dataset_{name}"),
        "test_split": "test",
        "output_type": "generate_until",
        "doc_to_text": "prompt",
        "doc_to_target": "target",
        "generation_kwargs": _generation_kwargs(probe_settings(task, probe)),
        "process_results": FunctionRef(f"utils.process_results_{name}"),
        "metric_list": metric_list,
        "metadata": {"version": task.version, "frontier_task": task.name, "frontier_args": args},
    }
    if any(row["system"] for row in rows):
        config["description"] = "system"
    (out_dir / f"{name}.yaml").write_text(
        yaml.dump(config, Dumper=_Dumper, sort_keys=False, allow_unicode=True), encoding="utf-8"
    )
    return Exported(task.name, name, samples=len(rows), metrics=metrics), lines


def probe_settings(task: Task, request: GenerateRequest) -> GenerationSettings:
    """The generation settings the task's request used (the task's defaults unless its solver changed them)."""
    return GenerationSettings(
        max_tokens=request.max_tokens,
        temperature=request.temperature,
        top_p=request.top_p,
        seed=request.seed,
        stop=request.stop,
        reasoning_budget=request.reasoning_budget,
    )


UTILS_HEADER = '''"""Generated by `frontier export lm-eval`: lm-eval hooks that call frontier-evals' scorers.

Each task's process_results scores a generation with the task's own score(); each agg_* function
reports one part (value, ci_low, ci_high, n) of one metric of the task's aggregate(). Regenerate
rather than edit.
"""

from pathlib import Path

from harness.interop.lm_eval_runtime import aggregation, dataset_from, process_results

HERE = Path(__file__).resolve().parent  # the data files are named relative to this folder, so it can be moved
'''


def export_tasks(
    tasks: Iterable[tuple[str, dict[str, Any]]],
    out_dir: Path,
    limit: int | None = None,
    on_done: Callable[[Exported], None] | None = None,
) -> list[Exported]:
    """Export ``(task name, args)`` pairs into ``out_dir``; tasks that cannot be exported are reported, not fatal.

    ``on_done`` hears of each task as soon as it is written or skipped (the command's progress).
    """
    from harness.registry import resolve_task

    out_dir.mkdir(parents=True, exist_ok=True)
    exported: list[Exported] = []
    lines: list[str] = []
    for task_name, args in tasks:
        try:
            task = resolve_task(task_name).create(**args)
            record, task_lines = export_task(task, args, out_dir, limit)
        except (ConfigError, OSError, ValueError) as exc:
            record, task_lines = Exported(task_name, lm_eval_name(task_name), reason=f"{type(exc).__name__}: {exc}"), []
        exported.append(record)
        lines.extend(task_lines)
        if on_done is not None:
            on_done(record)
    if not any(not e.reason for e in exported):
        raise ConfigError("no task could be exported: " + "; ".join(f"{e.task}: {e.reason}" for e in exported))
    (out_dir / "utils.py").write_text(UTILS_HEADER + "\n".join(lines) + "\n", encoding="utf-8")
    return exported
