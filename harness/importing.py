"""Import outputs produced elsewhere into a normal run directory, scored by the task's own scorers.

The run's ``config.json`` names the model ``import/<label>`` and records the source file
(path, format, column, SHA-256). Each sample's output is the imported text, logged as one
call with role ``import``; the task scores it exactly as it scores a model's answer, so
``frontier show``, ``rescore``, ``report`` and ``submit`` work on the directory.

Every imported entry must answer a sample of the task: an unknown id or a row beyond the
task's samples is an error, and so is a sample answered twice. A sample the source does not
answer is an error too, unless ``allow_missing``: then it is logged with an ``error``
outcome (``no output imported``), counted in the summary and never scored.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from harness.context import SampleContext
from harness.errors import ConfigError
from harness.import_formats import ImportedText, guess_format, read_outputs
from harness.lifecycle import LoadedRun, Record, WorkItem
from harness.plan import PreparedTask, RunPlan, TaskPlan
from harness.run_options import RunOptions
from harness.types import (
    CallRecord,
    GenerateRequest,
    Generation,
    Output,
    RunSummary,
    Sample,
    SampleResult,
    Score,
    Usage,
)

IMPORT_ROLE = "import"


@dataclass(frozen=True)
class ImportReport:
    """What an import did: results written now, samples already in the run, samples with no output,
    and outputs for samples beyond ``--limit`` (left out)."""

    summary: RunSummary
    written: int
    already_logged: int
    missing: int
    outside_limit: int = 0


def file_sha256(path: Path) -> str:
    """The SHA-256 of a file's bytes, read in chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def match_entries(
    samples: Sequence[Sample], entries: Sequence[ImportedText], origin: str, all_ids: Sequence[str] | None = None
) -> tuple[dict[str, ImportedText], list[str], int]:
    """Each sample id with the entry that answers it, the ids no entry answers, and the entries left out.

    ``all_ids`` are the ids of every sample of the task when ``samples`` is only its first
    few (``--limit``): an entry for one of the others is left out and counted. ConfigError
    for an entry naming no sample at all, or two entries answering one sample (one by id,
    one by row).
    """
    ids = list(all_ids) if all_ids is not None else [sample.id for sample in samples]
    known = set(ids)
    kept = {sample.id for sample in samples}
    matched: dict[str, ImportedText] = {}
    unknown: list[str] = []
    outside = 0
    for entry in entries:
        if entry.sample_id is not None:
            sample_id = entry.sample_id if entry.sample_id in known else None
        else:
            assert entry.row is not None
            sample_id = ids[entry.row] if entry.row < len(ids) else None
        if sample_id is None:
            unknown.append(f"{entry.key()} (line {entry.line})")
            continue
        if sample_id in matched:
            raise ConfigError(
                f"import: {origin} answers sample {sample_id} twice (lines {matched[sample_id].line} and {entry.line})"
            )
        matched[sample_id] = entry
    if unknown:
        raise ConfigError(
            f"import: {origin} has {len(unknown)} output(s) for no sample of the task "
            f"({len(ids)} samples, rows counted from 0): {', '.join(unknown[:5])}"
        )
    for sample_id in [k for k in matched if k not in kept]:
        del matched[sample_id]
        outside += 1
    missing = [sample.id for sample in samples if sample.id not in matched]
    return matched, missing, outside


def import_config(config: dict[str, Any], source: dict[str, Any]) -> dict[str, Any]:
    """A run config (``load_run``'s) plus the import source, with the hash covering both."""
    body = {k: v for k, v in config.items() if k not in ("harness_version", "config_hash", "created_at")}
    body["import"] = source
    digest = hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()
    return {**config, "import": source, "config_hash": digest}


def imported_result(
    entry: PreparedTask, sample: Sample, text: str | None, label: str, score: Score, line: int | None
) -> SampleResult:
    """The logged result of one sample: the imported text as output and as one ``import`` call, made on the
    sample's messages (its transcript)."""
    request = GenerateRequest(messages=sample.messages(), **entry.settings.model_dump())
    from harness.cache import request_key
    from harness.transcript import TranscriptBuilder

    transcript = TranscriptBuilder()
    calls = (
        ()
        if text is None
        else (
            CallRecord(
                request_key=request_key(request),
                generation=Generation(text=text, model=label),
                role=IMPORT_ROLE,
                messages=transcript.spans(request.messages),
            ),
        )
    )
    return SampleResult(
        sample_id=sample.id,
        task=entry.task.name,
        input=sample.input,
        target=sample.target,
        output=Output(text=text or ""),
        score=score,
        calls=calls,
        cost_usd=None,
        cost_known=False,
        metadata=sample.metadata,
        method_data={} if line is None else {"import_line": line},
        transcript=tuple(transcript.messages),
    )


async def _completed(entry: PreparedTask, sample: Sample, text: str, seed: int) -> tuple[Output, SampleContext]:
    """The output for an imported text (:meth:`Task.imported_output`) and the context its calls were logged in."""
    from harness.context import current_sample
    from harness.runner import sample_seed

    context = SampleContext(task=entry.task, sample=sample, seed=sample_seed(seed, entry.task.name, sample.id))
    token = current_sample.set(context)
    try:
        output = await entry.task.imported_output(sample, text)
    finally:
        current_sample.reset(token)
    return output, context


async def _scores(entry: PreparedTask, pairs: list[tuple[Sample, Output]]) -> list[Score]:
    """The task's scores of the imported outputs, in order (a CPU-heavy task through the local pool)."""
    from contextlib import nullcontext

    from harness.executors.local_pool import local_pool_scoring
    from harness.executors.scoring import score_safely

    with local_pool_scoring() if entry.task.cpu_heavy else nullcontext():
        return list(await asyncio.gather(*(score_safely(entry.task, s, output) for s, output in pairs)))


class ImportExecutor:
    """Solves a run's samples with outputs imported from a file: each answered sample scored by its task,
    as a model's answer is; a sample with no output logged as an ``error`` (``allow_missing``)."""

    def __init__(
        self, entry: PreparedTask, matched: dict[str, ImportedText], label: str, source: Path, seed: int = 0
    ) -> None:
        self.entry = entry
        self.matched = matched
        self.label = label
        self.source = source
        self.seed = seed
        self.written = 0

    async def start(self, run: LoadedRun) -> None:
        """Nothing to build: no model is called."""

    async def plan(self, run: LoadedRun) -> None:
        """Nothing to plan: no method is run."""

    async def solve(self, items: list[WorkItem], record: Record) -> None:
        """Score the imported outputs of ``items`` (a CPU-heavy task through the local pool), then log each."""
        entry = self.entry
        answered = [sample for _, sample, _ in items if sample.id in self.matched]
        slots = asyncio.Semaphore(RunOptions().concurrency)  # a judge is called for at most this many at once

        async def complete(sample: Sample) -> tuple[Output, SampleContext]:
            async with slots:
                return await _completed(entry, sample, self.matched[sample.id].text, self.seed)

        completed = await asyncio.gather(*(complete(sample) for sample in answered))
        outputs = dict(zip([s.id for s in answered], completed, strict=True))
        scores = iter(await _scores(entry, [(sample, outputs[sample.id][0]) for sample in answered]))
        for _, sample, _ in items:
            found = self.matched.get(sample.id)
            if found is None:
                missing = Score.error(f"no output imported for this sample (not in {self.source.name})", stage="model")
                record(imported_result(entry, sample, None, self.label, missing, None))
            else:
                output, context = outputs[sample.id]
                result = imported_result(entry, sample, found.text, self.label, next(scores), found.line)
                if context.calls:
                    update = {
                        "output": output,
                        "calls": (*result.calls, *context.calls),
                        "usage": Usage.total(call.generation.usage for call in context.calls),
                        "transcript": tuple(context.transcript.messages),
                    }
                    result = result.model_copy(update=update)
                else:
                    result = result.model_copy(update={"output": output})
                record(result)
            self.written += 1

    async def close(self) -> None:
        """Nothing to release."""


def import_outputs(
    task_plan: TaskPlan,
    source: Path,
    out_dir: Path,
    label: str | None = None,
    fmt: str | None = None,
    column: str | None = None,
    allow_missing: bool = False,
    seed: int = 0,
) -> ImportReport:
    """Write ``out_dir`` as a run of ``task_plan`` whose outputs are read from ``source``, and score it.

    The run goes through the one run lifecycle (:func:`harness.lifecycle.run_lifecycle`) with an
    :class:`ImportExecutor`. Importing the same source again into the same directory adds nothing;
    a directory holding another run (or another source) is refused untouched, as ``frontier run`` does.
    """
    from harness.lifecycle import limited_samples, load_run, run_lifecycle

    chosen = fmt or guess_format(source)
    entries = read_outputs(source, chosen, column)
    name = label or f"{source.stem}{':' + column if column else ''}"
    plan = RunPlan(model=f"import/{name}", tasks=(task_plan,), seed=seed)
    loaded = load_run(plan)
    entry = loaded.prepared[0]
    samples = loaded.samples[entry.task.name]
    all_ids = None if task_plan.limit is None else [s.id for s in limited_samples(entry.task, None)]
    matched, missing, outside = match_entries(samples, entries, str(source), all_ids)
    if missing and not allow_missing:
        raise ConfigError(
            f"import: {source} has no output for {len(missing)} of {len(samples)} sample(s) "
            f"(first: {', '.join(missing[:5])}); pass --allow-missing to log them as errors"
        )
    origin = {
        "source": str(source.resolve()),
        "format": chosen,
        "column": column,
        "sha256": file_sha256(source),
        "entries": len(entries),
        "allow_missing": allow_missing,
    }
    run = replace(loaded, config=import_config(loaded.config, origin))
    executor = ImportExecutor(entry, matched, name, source, seed)
    summary = asyncio.run(run_lifecycle(run, out_dir, RunOptions(progress=False), executor))
    return ImportReport(
        summary=summary,
        written=executor.written,
        already_logged=len(samples) - executor.written,
        missing=len(missing),
        outside_limit=outside,
    )
