"""Build a leaderboard submission (``schema/submission-v1.json``) from one or more run directories.

Several runs of the same model, method chain and suite (for example one run per task) merge
into one submission; they must agree on all three and must not share a task.

A task's ``data_hash`` fingerprints the samples it was scored on: the SHA-256 of the sorted
lines ``<sample id> TAB <sha256 of the JSON of [input, target]>``, so two submissions with
the same hash were scored on the same inputs and targets whatever the order of the log.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from harness.json_input import JsonInputError, parse_json
from harness.types import SampleResult
from leaderboard.metrics import family_of, points_up, primary_metric
from leaderboard.runs import RunDir, RunFormatError, iter_samples, load_run

SCHEMA_VERSION = "frontier-submission/1"


class SubmissionError(ValueError):
    """Runs that cannot be combined into one submission."""


def parse_method_spec(spec: Any) -> dict[str, Any]:
    """``"best_of_n:n=8,temperature=0.7"`` (or ``{"name", "params"|"args"}``) as ``{name, params}``."""
    if isinstance(spec, dict):
        name = spec.get("name")
        params = spec.get("params", spec.get("args", {}))
        if not isinstance(name, str) or not name or not isinstance(params, dict):
            raise SubmissionError(f"method spec {spec!r} needs a name and a params object")
        return {"name": name, "params": dict(params)}
    if not isinstance(spec, str) or not spec.strip():
        raise SubmissionError(f"method spec {spec!r} is not a non-empty string")
    from harness.method_spec import parse_method_spec as parse_spec_text

    try:
        name, texts = parse_spec_text(spec.strip())
    except ValueError as exc:
        raise SubmissionError(str(exc)) from None
    return {"name": name, "params": {key: _parse_scalar(raw) for key, raw in texts.items()}}


def _parse_scalar(raw: str) -> Any:
    try:
        value = parse_json(raw, "a method parameter")
    except JsonInputError:
        return raw
    if isinstance(value, float) and not math.isfinite(value):
        return raw
    return value if value is None or isinstance(value, (bool, int, float, str)) else raw


def method_label(chain: list[dict[str, Any]]) -> str:
    """A readable name for a method chain (``none`` for the bare model)."""
    if not chain:
        return "none"
    parts = []
    for link in chain:
        params = ",".join(f"{k}={v}" for k, v in link["params"].items())
        parts.append(f"{link['name']}:{params}" if params else link["name"])
    return "+".join(parts)


def config_label(config: dict[str, Any], label: str) -> str:
    """The method label of a sweep point's run: with its grid configuration (``frontier sweep --grid``), so
    that the points of one model and method are told apart; ``label`` unchanged for any other run."""
    engine = config.get("engine")
    values = engine.get("config") if isinstance(engine, dict) else None
    if not isinstance(values, dict) or not values:
        return label
    text = " ".join(f"{key}={value}" for key, value in values.items())
    return text if label == "none" else f"{label} [{text}]"


THROUGHPUT_FIELDS = (
    "definition",
    "requests",
    "concurrency",
    "output_tok_s",
    "output_tok_s_ci",
    "latency_s_median",
    "latency_s_median_ci",
)
"""What a submission keeps of a task's throughput block (``harness.throughput``): the plotted figures."""


def _sample_digest(result: SampleResult) -> str:
    payload = json.dumps(
        [result.model_dump(mode="json")["input"], result.target], sort_keys=True, separators=(",", ":"), default=str
    )
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def scan_samples(run: RunDir, with_samples: bool) -> dict[str, dict[str, Any]]:
    """Per task: the data hash and (optionally) the per-sample scores, streaming the log once.

    A sample id logged twice keeps its last record.
    """
    digests: dict[str, dict[str, str]] = {}
    scores: dict[str, dict[str, dict[str, Any]]] = {}
    for result in iter_samples(run.samples_path):
        digests.setdefault(result.task, {})[result.sample_id] = _sample_digest(result)
        if with_samples:
            value = result.score.value
            scores.setdefault(result.task, {})[result.sample_id] = {
                "id": result.sample_id,
                "value": value if value is None or math.isfinite(value) else None,
                "outcome": result.score.outcome,
                "tokens": result.usage.total_tokens,
            }
    out: dict[str, dict[str, Any]] = {}
    for task, by_id in digests.items():
        lines = "\n".join(f"{sid}\t{digest}" for sid, digest in sorted(by_id.items()))
        entry: dict[str, Any] = {"data_hash": "sha256:" + hashlib.sha256(lines.encode("utf-8")).hexdigest()}
        if with_samples:
            entry["samples"] = list(scores[task].values())
        out[task] = entry
    return out


def _task_entry(run: RunDir, task: str, scanned: dict[str, Any]) -> dict[str, Any]:
    summary = run.summary.tasks[task]
    metrics = {name: metric.model_dump(mode="json") for name, metric in summary.metrics.items()}
    if not metrics:
        raise SubmissionError(f"{run.path}: task {task!r} reports no metrics")
    primary = primary_metric(list(metrics))
    config = run.task_config(task)
    version = config.get("version")
    entry: dict[str, Any] = {
        "family": family_of(task),
        "version": None if version is None else str(version),
        "args": config.get("args") if isinstance(config.get("args"), dict) else {},
        "settings": config.get("settings") if isinstance(config.get("settings"), dict) else {},
        "primary_metric": primary,
        "higher_is_better": points_up(primary, metrics[primary].get("scale")),
        "metrics": metrics,
        "counts": {k: int(summary.counts.get(k, 0)) for k in ("scored", "unscored", "error")},
        "usage": summary.usage.model_dump(mode="json"),
        "cost_usd": summary.cost_usd,
        "cost_known": summary.cost_known,
        "retries": summary.retries,
        "data_hash": scanned.get("data_hash"),
    }
    if summary.throughput:
        entry["throughput"] = {key: summary.throughput.get(key) for key in THROUGHPUT_FIELDS}
    if "samples" in scanned:
        entry["samples"] = scanned["samples"]
    return entry


def build_submission(run_dirs: Iterable[str | Path], with_samples: bool = True) -> dict[str, Any]:
    """One submission dict from the runs at ``run_dirs`` (validate it before publishing)."""
    runs = [load_run(path) for path in run_dirs]
    if not runs:
        raise SubmissionError("no run directories given")
    first = runs[0]
    chain = [parse_method_spec(spec) for spec in first.config.get("methods", [])]
    label = config_label(first.config, method_label(chain))
    identity = (first.summary.model, label, first.config.get("suite"), first.config.get("suite_version"))
    tasks: dict[str, Any] = {}
    for run in runs:
        run_chain = [parse_method_spec(spec) for spec in run.config.get("methods", [])]
        run_label = config_label(run.config, method_label(run_chain))
        other = (run.summary.model, run_label, run.config.get("suite"), run.config.get("suite_version"))
        if other != identity:
            raise SubmissionError(f"{run.path}: model/method/suite {other} differs from {first.path}: {identity}")
        scanned = scan_samples(run, with_samples)
        for task in run.summary.tasks:
            if task in tasks:
                raise SubmissionError(f"{run.path}: task {task!r} already comes from another run")
            tasks[task] = _task_entry(run, task, scanned.get(task, {}))
    if not tasks:
        raise SubmissionError("the runs hold no tasks")
    model = first.summary.model
    suite_name = first.config.get("suite")
    suite_version = first.config.get("suite_version")
    return {
        "schema_version": SCHEMA_VERSION,
        "model": model,
        "adapter": model.split("/", 1)[0] if "/" in model else model,
        "method": {"label": label, "chain": chain},
        "suite": {
            "name": suite_name if isinstance(suite_name, str) and suite_name else "custom",
            "version": None if suite_version is None else str(suite_version),
            **_left_out(runs, tasks),
        },
        "harness_version": first.summary.harness_version,
        "date": max(run.summary.finished_at for run in runs),
        "seed": first.summary.seed,
        "runs": [
            {"run_id": r.summary.run_id, "config_hash": r.summary.config_hash, "complete": r.summary.complete}
            for r in runs
        ],
        "tasks": tasks,
    }


def _left_out(runs: list[RunDir], tasks: dict[str, Any]) -> dict[str, list[dict[str, str]]]:
    """``{"left_out": [...]}``: the suite's tasks these runs left out (a missing library) and no run has."""
    reasons: dict[str, str] = {}
    for run in runs:
        entries = run.config.get("left_out")
        for entry in entries if isinstance(entries, list) else ():
            if isinstance(entry, dict) and isinstance(entry.get("task"), str) and entry["task"] not in tasks:
                reasons.setdefault(entry["task"], str(entry.get("reason", ""))[:500])
    return {"left_out": [{"task": t, "reason": r} for t, r in sorted(reasons.items())]} if reasons else {}


def write_submission(submission: dict[str, Any], path: str | Path) -> None:
    """Write ``submission`` as JSON (NaN refused)."""
    Path(path).write_text(json.dumps(submission, indent=1, allow_nan=False) + "\n", encoding="utf-8")


__all__ = [
    "RunFormatError",
    "SubmissionError",
    "build_submission",
    "method_label",
    "parse_method_spec",
    "scan_samples",
    "write_submission",
]
