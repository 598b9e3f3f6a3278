"""What the ``utils.py`` of an exported lm-eval task directory calls: our scorer and our aggregates.

``process_results`` scores one generation with the task's own ``score()`` and hands the
SampleResult (as JSON) to every metric; each ``aggregation`` rebuilds the SampleResults
and reports one part (value, ci_low, ci_high or n) of one metric of ``task.aggregate()``.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from harness.executors.scoring import scorer_failure
from harness.json_input import parse_json
from harness.task import Task
from harness.types import MetricValue, Output, Sample, SampleResult, Score

SAMPLE_FIELD = "frontier_sample"
PARTS = ("value", "ci_low", "ci_high", "n")


@cache
def _task(name: str, args_json: str) -> Task:
    from harness.registry import resolve_task

    return resolve_task(name).create(**parse_json(args_json, f"the arguments of {name}"))


def score_text(task: Task, sample: Sample, text: str) -> Score:
    """``task.score`` on a generated text; a scorer bug is an error outcome, never an exception."""
    try:
        return task.score(sample, Output(text=text))
    except Exception as exc:
        return scorer_failure(exc)


def process_results(
    name: str, args: dict[str, Any], metrics: list[str]
) -> Callable[[dict[str, Any], list[str]], dict[str, Any]]:
    """lm-eval's ``process_results(doc, results)`` for task ``name``: one SampleResult per metric key."""
    args_json = json.dumps(args, sort_keys=True)

    def process(doc: dict[str, Any], results: list[str]) -> dict[str, Any]:
        task = _task(name, args_json)
        sample = Sample.model_validate_json(doc[SAMPLE_FIELD])
        text = results[0] if results and isinstance(results[0], str) else ""
        score = score_text(task, sample, text)
        record = SampleResult(
            sample_id=sample.id,
            task=task.name,
            input="",
            target=sample.target,
            output=Output(text=text),
            score=score,
            metadata=sample.metadata,
        ).model_dump(mode="json")
        return {metric: record for metric in metrics}

    return process


_last: dict[str, Any] = {"key": None, "values": {}}


def _aggregate(task: Task, items: list[dict[str, Any]]) -> dict[str, MetricValue]:
    """``task.aggregate`` over ``items``; the last answer is reused, as every metric sees the same items."""
    key = task.name + hashlib.sha256(json.dumps(items, sort_keys=True).encode()).hexdigest()
    if _last["key"] != key:
        _last["values"] = task.aggregate([SampleResult.model_validate(item) for item in items])
        _last["key"] = key
    return _last["values"]


def aggregation(name: str, args: dict[str, Any], metric: str, part: str) -> Callable[[list[dict[str, Any]]], float]:
    """lm-eval's aggregation for one ``part`` of one metric of task ``name``; NaN when undefined."""
    if part not in PARTS:
        raise ValueError(f"unknown metric part {part!r}; expected one of {PARTS}")
    args_json = json.dumps(args, sort_keys=True)

    def aggregate(items: list[dict[str, Any]]) -> float:
        values = _aggregate(_task(name, args_json), items)
        found = values.get(metric)
        value = getattr(found, part) if found is not None else None
        return math.nan if value is None else float(value)

    return aggregate


def dataset_from(path: str | Path) -> Callable[..., Any]:
    """lm-eval's ``custom_dataset`` for an exported task: its JSONL file (named relative to the export
    folder by ``utils.py``, so the folder can be moved) as a ``test`` split."""
    file = Path(path)

    def load(**_metadata: Any) -> Any:
        import datasets

        with file.open(encoding="utf-8") as handle:
            rows = [
                parse_json(line, f"line {number} of {handle.name}")
                for number, line in enumerate(handle, 1)
                if line.strip()
            ]
        return datasets.DatasetDict({"test": datasets.Dataset.from_list(rows)})

    return load
