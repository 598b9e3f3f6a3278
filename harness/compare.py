"""Runs of the same tasks read item by item, checked to be comparable, and compared pair by pair.

Each run's config names its tasks; each task is rebuilt from it (no data is loaded) to say which
per-sample metric it is ranked by (``accuracy`` when it has one, else its first, as the
leaderboard ranks), how that metric treats unscored and failed samples, which item a sample is a
trial of (:meth:`~harness.task.Task.item_of`) and which cluster the item belongs to
(:meth:`~harness.task.Task.cluster_of`). The log is then read once per run.

Two runs are refused, with the reason, when they share no task, when a shared task differs in
version or arguments (other than ``trials``), when they ran the same configuration on data of a
different digest, when an item they share has a different input or target, or when they share
no item with a value. Items only one run has, and items without a value on either side, are
counted and left out. Statistics are in :mod:`harness.paired`.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any, Literal

from harness.errors import ConfigError
from harness.paired import (
    Item,
    Stratum,
    benjamini_hochberg,
    bootstrap_ci,
    choose_test,
    difference,
    holm,
    items_needed,
    minimum_detectable_effect,
    p_value,
    se_paired,
    se_unpaired,
)
from harness.task import AnyTask, Metric
from harness.types import SampleResult

Adjustment = Literal["holm", "bh"]
FREE_ARGS = frozenset({"trials"})
"""Task arguments two compared runs may differ in (each item's trials are averaged)."""


MAX_DISCORDANT_LISTED = 200
"""Items scored differently listed per task (their count is always given)."""


class CompareError(ConfigError):
    """Two runs cannot be compared; the message names why."""


@dataclass
class ItemLog:
    """One item of one task in one run: its trials' metric values, its cluster and its data's digest."""

    values: list[float] = field(default_factory=list)
    trials: int = 0
    cluster: str | None = None
    data: str = ""


@dataclass
class RunTask:
    """One task as one run configured and logged it."""

    config: dict[str, Any]
    digest: str | None
    items: dict[str, ItemLog] = field(default_factory=dict)

    def flip_rate(self) -> float | None:
        """The share of items run more than once whose trials disagree; None without repeated trials."""
        repeated = [log.values for log in self.items.values() if len(log.values) > 1]
        if not repeated:
            return None
        return sum(1 for values in repeated if len(set(values)) > 1) / len(repeated)


@dataclass
class Run:
    """A run directory read for comparison: its label and its tasks."""

    path: Path
    label: str
    tasks: dict[str, RunTask]


@dataclass(frozen=True)
class Compared:
    """The metric a task is compared on, and the task that says how to read a result."""

    task: AnyTask
    metric: Metric


def ranking_metric(task: AnyTask) -> Metric:
    """The per-sample metric ``task`` is compared on: ``accuracy`` when it has one, else its first."""
    metrics = task.metrics()
    if not metrics:
        raise CompareError(f"task {task.name} has no per-sample metric to compare")
    return next((metric for metric in metrics if metric.name == "accuracy"), metrics[0])


def _data_digest(result: SampleResult) -> str:
    """A digest of the item's input and target (what two runs must agree on)."""
    body = json.dumps(result.model_dump(mode="json", include={"input", "target"}), sort_keys=True, default=repr)
    return hashlib.sha256(body.encode()).hexdigest()


def task_entries(config: dict[str, Any], path: Path) -> list[dict[str, Any]]:
    """The tasks a run's config lists, each a dict with a name; CompareError otherwise."""
    entries = config.get("tasks")
    if not isinstance(entries, list) or not all(
        isinstance(e, dict) and isinstance(e.get("name"), str) for e in entries
    ):
        raise CompareError(f"{path}: config.json's 'tasks' is not a list of tasks with names")
    return entries


def read_run(path: Path, config: dict[str, Any], compared: dict[str, Compared], label: str) -> Run:
    """The run at ``path`` (its ``config`` read): its tasks, and every item's values of those in ``compared``."""
    from harness.runformat import RunFiles

    digests = config.get("samples")
    digests = digests if isinstance(digests, dict) else {}
    tasks = {e["name"]: RunTask(config=e, digest=digests.get(e["name"])) for e in task_entries(config, path)}
    for result in RunFiles(path).results():
        entry, how = tasks.get(result.task), compared.get(result.task)
        if entry is None or how is None:
            continue
        log = entry.items.setdefault(how.task.item_of(result), ItemLog())
        log.trials += 1
        if log.trials == 1:
            log.cluster, log.data = how.task.cluster_of(result), _data_digest(result)
        value = how.metric.value(result)
        if value is not None and math.isfinite(value):
            log.values.append(float(value))
    return Run(path, label, tasks)


def build_tasks(configs: Sequence[dict[str, Any]]) -> dict[str, Compared]:
    """Each named task rebuilt from its first config (name and arguments), with its compared metric."""
    from harness.plan import TaskPlan, build_task

    built: dict[str, Compared] = {}
    for entry in configs:
        name = str(entry["name"])
        if name not in built:
            args = entry.get("args")
            task = build_task(TaskPlan(name, dict(args) if isinstance(args, dict) else {})).task
            built[name] = Compared(task, ranking_metric(task))
    return built


def check_same_task(name: str, a: Run, b: Run) -> None:
    """Refuse two runs whose configurations of task ``name`` differ in version, arguments or data."""
    left, right = a.tasks[name], b.tasks[name]
    if left.config.get("version") != right.config.get("version"):
        raise CompareError(
            f"task {name}: version {left.config.get('version')} in {a.label} but {right.config.get('version')} "
            f"in {b.label}: scores of different task versions are not comparable"
        )
    args_a, args_b = left.config.get("args") or {}, right.config.get("args") or {}
    differing = sorted(k for k in set(args_a) | set(args_b) if k not in FREE_ARGS and args_a.get(k) != args_b.get(k))
    if differing:
        shown = ", ".join(f"{k}={args_a.get(k)!r} vs {args_b.get(k)!r}" for k in differing)
        raise CompareError(f"task {name}: different arguments in {a.label} and {b.label} ({shown})")
    same_selection = left.config.get("limit") == right.config.get("limit") and args_a == args_b
    if same_selection and left.digest is not None and right.digest is not None and left.digest != right.digest:
        raise CompareError(
            f"task {name}: {a.label} and {b.label} ran on different data (data hashes {left.digest} and "
            f"{right.digest}): the items are not the same"
        )
    for key in sorted(set(left.items) & set(right.items)):
        if left.items[key].data != right.items[key].data:
            raise CompareError(
                f"task {name}: item {key!r} has a different input or target in {a.label} and {b.label}: "
                "the runs used different data"
            )


def _mean(values: list[float]) -> float:
    return math.fsum(values) / len(values)


def points_up(metric: Metric) -> bool:
    """Whether higher values of ``metric`` are better: as its declared scale says, else by its name."""
    from leaderboard.metrics import higher_is_better

    return metric.scale.higher_is_better if metric.scale is not None else higher_is_better(metric.name)


def compare_task(name: str, how: Compared, a: Run, b: Run, seed: int) -> dict[str, Any]:
    """The paired comparison of task ``name`` between runs ``a`` and ``b`` (fields of ``--json``)."""
    left, right = a.tasks[name].items, b.tasks[name].items
    both = set(left) & set(right)
    items = paired_items(left, right)
    row: dict[str, Any] = {
        "metric": how.metric.name,
        "metric_rule": how.metric.description,
        "higher_is_better": points_up(how.metric),
        "n_paired": len(items),
        "only_a": len(set(left) - both),
        "only_b": len(set(right) - both),
        "no_value": len(both) - len(items),
        "trials_a": max((log.trials for log in left.values()), default=0),
        "trials_b": max((log.trials for log in right.values()), default=0),
        "flip_rate_a": a.tasks[name].flip_rate(),
        "flip_rate_b": b.tasks[name].flip_rate(),
        "discordant_count": sum(item.a != item.b for item in items),
        "discordant": [item.key for item in items if item.a != item.b][:MAX_DISCORDANT_LISTED],
    }
    if not items:
        return row
    return row | statistics([Stratum(items)], seed)


def _finite(value: float) -> float | None:
    return value if math.isfinite(value) else None


def statistics(strata: list[Stratum], seed: int) -> dict[str, Any]:
    """Means, difference B − A with its CI, SEs, test, p-value and power of ``strata`` (one per task)."""
    diff = difference(strata)
    test = choose_test(strata)
    p = p_value(strata, test, seed=seed)
    mde = minimum_detectable_effect(strata)
    n = sum(s.n for s in strata)
    low, high = bootstrap_ci(strata, seed=seed)
    return {
        "a": math.fsum(float(s.a.mean()) for s in strata) / len(strata),
        "b": math.fsum(float(s.b.mean()) for s in strata) / len(strata),
        "diff": diff,
        "ci": [low, high],
        "se_paired": _finite(se_paired(strata)),
        "se_unpaired": _finite(se_unpaired(strata)),
        "test": test,
        "p_value": p,
        "p_adjusted": p,
        "mde": mde,
        "items_needed": items_needed(n, diff, mde) if p >= 0.05 else None,
        "clusters": sum(s.k for s in strata) if any(s.clustered for s in strata) else None,
        "clusters_declared": sum(s.declared for s in strata),
    }


def compare_pair(a: Run, b: Run, built: dict[str, Compared], seed: int) -> dict[str, Any]:
    """Every task ``a`` and ``b`` share, compared, and their suite (the mean over tasks) when more than one."""
    shared = [name for name in a.tasks if name in b.tasks]
    if not shared:
        raise CompareError(
            f"{a.label} and {b.label} share no task ({', '.join(a.tasks) or 'none'} vs {', '.join(b.tasks) or 'none'})"
        )
    for name in shared:
        check_same_task(name, a, b)
    tasks = {name: compare_task(name, built[name], a, b, seed) for name in shared}
    if not any(row["n_paired"] for row in tasks.values()):
        raise CompareError(f"{a.label} and {b.label} have no scored item in common in {', '.join(shared)}")
    pair: dict[str, Any] = {
        "run_a": a.label,
        "run_b": b.label,
        "tasks": tasks,
        "only_in_a": [name for name in a.tasks if name not in b.tasks],
        "only_in_b": [name for name in b.tasks if name not in a.tasks],
    }
    in_suite = [n for n in shared if tasks[n]["n_paired"] and points_up(built[n].metric)]
    if len(in_suite) > 1:
        strata = [Stratum(paired_items(a.tasks[name].items, b.tasks[name].items)) for name in in_suite]
        pair["suite"] = {"tasks": in_suite, "n_paired": sum(s.n for s in strata), **statistics(strata, seed)}
    return pair


def paired_items(left: dict[str, ItemLog], right: dict[str, ItemLog]) -> list[Item]:
    """The items both runs logged with a value, each at its mean over trials, with its cluster (either run's)."""
    return [
        Item(key, left[key].cluster or right[key].cluster, _mean(left[key].values), _mean(right[key].values))
        for key in sorted(set(left) & set(right))
        if left[key].values and right[key].values
    ]


def adjust(pairs: list[dict[str, Any]], method: Adjustment) -> None:
    """Fill ``p_adjusted``: over every (pair, task) test together, and over the pairs' suite tests apart."""
    correct = holm if method == "holm" else benjamini_hochberg
    for rows in (
        [row for pair in pairs for row in pair["tasks"].values() if "p_value" in row],
        [pair["suite"] for pair in pairs if "suite" in pair],
    ):
        for row, adjusted in zip(rows, correct([row["p_value"] for row in rows]), strict=True):
            row["p_adjusted"] = adjusted


def labels(paths: Sequence[Path]) -> list[str]:
    """Each run's directory name, or its path as given where two names collide."""
    names = [path.name or str(path) for path in paths]
    return [name if names.count(name) == 1 else str(path) for name, path in zip(names, paths, strict=True)]


def compare_runs(paths: Sequence[Path], seed: int = 0, adjustment: Adjustment = "holm") -> dict[str, Any]:
    """Every pair of the runs at ``paths`` compared task by task (see the module's docstring)."""
    from harness.runformat import RunFiles

    if len(paths) < 2:
        raise CompareError("compare needs at least two runs")
    configs = [RunFiles(path).read_config() for path in paths]
    entries = [task_entries(config, path) for config, path in zip(configs, paths, strict=True)]
    names = [{str(entry["name"]) for entry in listed} for listed in entries]
    shared = set().union(*(left & right for left, right in combinations(names, 2)))
    built = build_tasks([entry for listed in entries for entry in listed if entry["name"] in shared])
    runs = [
        read_run(path, config, built, label) for path, config, label in zip(paths, configs, labels(paths), strict=True)
    ]
    pairs = [compare_pair(a, b, built, seed) for a, b in combinations(runs, 2)]
    adjust(pairs, adjustment)
    return {"runs": [run.label for run in runs], "seed": seed, "adjustment": adjustment, "pairs": pairs}
