"""Suites: YAML files naming tasks, their arguments, sample limits and generation settings.

A suite is validated against ``suite_schema.json``, whose ``settings`` are generated from
``GenerationSettings`` (see :func:`suite_schema`); an error names the file and the
field that is wrong. Suites are found by name in the project's ``suites/`` folder
(or the installed copy) or given as a path.
"""

from __future__ import annotations

import json
import logging
import sys
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Any

from harness.errors import ConfigError
from harness.plan import TaskPlan, missing_library

log = logging.getLogger(__name__)

MAX_SUITE_BYTES = 1024 * 1024
MAX_MESSAGE_CHARS = 300


@dataclass(frozen=True)
class Suite:
    """A validated suite."""

    name: str
    version: str
    description: str
    tasks: tuple[TaskPlan, ...]
    path: Path
    left_out: tuple[tuple[str, str], ...] = ()
    """Tasks of the file that cannot run here, each with the reason (a library not installed)."""


def suite_dirs() -> list[Path]:
    """Where suites live: the source tree's ``suites/`` and the installed data folder."""
    candidates = [
        Path(__file__).resolve().parents[1] / "suites",
        Path(sys.prefix) / "share" / "frontier-evals" / "suites",
    ]
    return [path for path in candidates if path.is_dir()]


def available_suites() -> dict[str, Path]:
    """Suite names to files (the first folder wins)."""
    found: dict[str, Path] = {}
    for folder in suite_dirs():
        for path in sorted(folder.glob("*.yaml")):
            found.setdefault(path.stem, path)
    return found


JsonSchema = dict[str, Any]


def _nullable(prop: JsonSchema) -> JsonSchema:
    """``anyOf: [X, {type: null}]`` as X with ``null`` added to its type (how the suite schema spells it)."""
    options = prop.get("anyOf")
    if not isinstance(options, list) or len(options) != 2 or {"type": "null"} not in options:
        return prop
    (inner,) = [option for option in options if option != {"type": "null"}]
    if not isinstance(inner.get("type"), str):
        return prop
    merged = {key: value for key, value in prop.items() if key != "anyOf"}
    return {**inner, **merged, "type": [inner["type"], "null"]}


def settings_schema() -> JsonSchema:
    """The JSON Schema of a suite's ``settings``, generated from :class:`harness.task.GenerationSettings`."""
    from harness.task import GenerationSettings

    generated = GenerationSettings.model_json_schema()
    properties = {}
    for name, prop in generated["properties"].items():
        kept = {key: value for key, value in prop.items() if key not in ("title", "default")}
        properties[name] = _nullable(kept)
    return {"type": "object", "additionalProperties": False, "properties": properties}


def suite_schema() -> JsonSchema:
    """The suite schema: ``suite_schema.json`` with its ``settings`` generated from GenerationSettings.

    The file carries the same settings (a test checks it), so that editors validate suites as the harness does.
    """
    schema: JsonSchema = json.loads(resources.files("harness").joinpath("suite_schema.json").read_text())
    schema["$defs"]["settings"] = settings_schema()
    return schema


def _where(error: Any) -> str:
    parts = ""
    for part in error.absolute_path:
        parts += f"[{part}]" if isinstance(part, int) else (f".{part}" if parts else str(part))
    return parts or "(top level)"


def _short(message: str) -> str:
    """A schema error message cut to ``MAX_MESSAGE_CHARS`` (jsonschema quotes the offending value whole)."""
    return message if len(message) <= MAX_MESSAGE_CHARS else message[:MAX_MESSAGE_CHARS] + "... (cut)"


def parse_suite(data: Any, path: Path) -> Suite:
    """Validate suite data and build it; ConfigError naming the wrong field otherwise."""
    import jsonschema

    try:
        errors = sorted(
            jsonschema.Draft202012Validator(suite_schema()).iter_errors(data),
            key=lambda e: [str(part) for part in e.absolute_path],
        )
    except RecursionError:
        raise ConfigError(f"suite {path} is nested too deeply") from None
    if errors:
        lines = "\n".join(f"  {_where(e)[:200]}: {_short(e.message)}" for e in errors[:10])
        raise ConfigError(f"suite {path} is invalid:\n{lines}")
    defaults = data.get("defaults", {})
    tasks = tuple(
        TaskPlan(
            name=item["task"],
            args=dict(item.get("args", {})),
            limit=item.get("limit", defaults.get("limit")),
            settings={**defaults.get("settings", {}), **item.get("settings", {})},
        )
        for item in data["tasks"]
    )
    return Suite(
        name=data["name"],
        version=str(data.get("version", "1")),
        description=data.get("description", ""),
        tasks=tasks,
        path=path,
    )


def load_suite(name_or_path: str) -> Suite:
    """A suite by name (``smoke``) or by path (``my/suite.yaml``)."""
    from harness.safe_yaml import load_bounded

    path = Path(name_or_path)
    if not path.is_file():
        suites = available_suites()
        if name_or_path not in suites:
            raise ConfigError(f"unknown suite {name_or_path!r}; known: {', '.join(suites) or 'none'}")
        path = suites[name_or_path]
    if path.stat().st_size > MAX_SUITE_BYTES:
        raise ConfigError(f"suite {path} is larger than {MAX_SUITE_BYTES:,} bytes")
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"suite {path} cannot be read: {exc}") from None
    return runnable(parse_suite(load_bounded(text, f"suite {path}"), path))


def runnable(suite: Suite) -> Suite:
    """``suite`` without the tasks whose library is not installed here, each left out with a one-line notice."""
    kept: list[TaskPlan] = []
    left_out: list[tuple[str, str]] = []
    for plan in suite.tasks:
        reason = missing_library(plan.name)
        if reason is None:
            kept.append(plan)
            continue
        left_out.append((plan.name, reason))
        log.warning("suite %s: %s left out: %s", suite.name, plan.name, reason)
    return replace(suite, tasks=tuple(kept), left_out=suite.left_out + tuple(left_out))
