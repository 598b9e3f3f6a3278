"""A suite's settings are checked by the schema generated from GenerationSettings: one set of constraints."""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

import pytest
from pydantic import ValidationError

from harness.errors import ConfigError
from harness.plan import TaskPlan, build_task
from harness.suites import parse_suite, settings_schema, suite_schema
from harness.task import GenerationSettings

CASES = [
    ("max_tokens", 1),
    ("max_tokens", 0),
    ("max_tokens", -5),
    ("max_tokens", None),
    ("max_tokens", "many"),
    ("temperature", 0),
    ("temperature", 1.5),
    ("temperature", -0.1),
    ("top_p", 0),
    ("top_p", 0.5),
    ("top_p", 1),
    ("top_p", 1.01),
    ("seed", 7),
    ("seed", None),
    ("stop", ["\n\n"]),
    ("stop", [3]),
    ("reasoning_budget", 0),
    ("reasoning_budget", -1),
    ("temprature", 0),
]


def test_the_shipped_schema_file_carries_the_generated_settings() -> None:
    shipped = json.loads(resources.files("harness").joinpath("suite_schema.json").read_text())
    assert shipped["$defs"]["settings"] == settings_schema(), (
        "harness/suite_schema.json is stale: set its $defs.settings to harness.suites.settings_schema()"
    )
    assert suite_schema() == shipped


def _suite_accepts(name: str, value: object) -> bool:
    data = {"name": "s", "tasks": [{"task": "demo/arith", "settings": {name: value}}]}
    try:
        parse_suite(data, Path("s.yaml"))
    except ConfigError:
        return False
    return True


def _model_accepts(name: str, value: object) -> bool:
    try:
        GenerationSettings.model_validate({name: value})
    except ValidationError:
        return False
    return True


@pytest.mark.parametrize(("name", "value"), CASES)
def test_suite_and_settings_model_agree(name: str, value: object) -> None:
    assert _suite_accepts(name, value) == _model_accepts(name, value)


def test_the_table_has_both_outcomes() -> None:
    outcomes = {_model_accepts(name, value) for name, value in CASES}
    assert outcomes == {True, False}


def test_out_of_range_settings_from_a_config_are_refused_by_name() -> None:
    with pytest.raises(ConfigError, match=r"task demo/arith: bad generation settings \(max_tokens: .*greater than"):
        build_task(TaskPlan("demo/arith", settings={"max_tokens": 0}))
    assert build_task(TaskPlan("demo/arith", settings={"top_p": 1})).settings.top_p == 1
