"""Toolkit schemas and validation, malformed calls, and the τ² task format."""

from __future__ import annotations

import json
from typing import Literal

import pytest

from tasks.tools.domains.registry import get_domain
from tasks.tools.domains.retail import RetailTools
from tasks.tools.domains.retail_db import RetailDB, build_db
from tasks.tools.framework.toolkit import MAX_ARGUMENT_CHARS, ToolKind, Toolkit, parse_docstring, tool
from tasks.tools.taskformat import TaskFormatError, check_against_domain, load_tasks, parse_tasks


class Counter(Toolkit):
    """A tiny toolkit for the tests."""

    @tool(ToolKind.WRITE)
    def add(self, amount: int, label: Literal["a", "b"] = "a") -> int:
        """Add to the counter.

        Args:
            amount: How much to add,
                a positive integer.
            label: Which counter.
        """
        self.db[label] = self.db.get(label, 0) + amount
        return self.db[label]

    @tool(ToolKind.ASSERT)
    def is_positive(self) -> bool:
        """Evaluation only."""
        return self.db.get("a", 0) > 0

    @tool(ToolKind.READ)
    def crash(self) -> int:
        """A faulty tool."""
        raise KeyError("boom")


def test_schema_from_hints_and_docstring() -> None:
    spec = Counter.spec("add")
    assert spec is not None
    schema = spec.openai_schema()
    params = schema["function"]["parameters"]
    assert schema["function"]["description"] == "Add to the counter."
    assert params["properties"]["amount"] == {"type": "integer", "description": "How much to add, a positive integer."}
    assert params["properties"]["label"]["enum"] == ["a", "b"]
    assert params["required"] == ["amount"]
    assert params["additionalProperties"] is False
    assert [t["function"]["name"] for t in Counter.openai_tools()] == ["add", "crash"]  # ASSERT hidden


def test_docstring_parser() -> None:
    summary, params = parse_docstring(
        "Do it.\n\nArgs:\n    x: first\n        continued\n    y (int): second\nReturns:\n    z"
    )
    assert summary == "Do it." and params == {"x": "first continued", "y": "second"}


@pytest.mark.parametrize(
    "arguments, fragment",
    [
        ("{not json", "not valid JSON"),
        ("[1, 2]", "must be a JSON object"),
        ('{"amount": "5"}', "amount: Input should be a valid integer"),
        ("{}", "amount: Field required"),
        ('{"amount": 1, "extra": 2}', "extra: Extra inputs are not permitted"),
        ('{"amount": 1, "label": "c"}', "label"),
        ('{"amount": ' + "1" * (MAX_ARGUMENT_CHARS + 10) + "}", "too large"),
        ("[" * 100_000, "too large"),
        ("[" * 20_000, "not valid JSON"),
    ],
    ids=[
        "invalid-json",
        "not-object",
        "wrong-type",
        "missing",
        "extra",
        "bad-enum",
        "huge",
        "huge-nesting",
        "deep-nesting",
    ],
)
def test_malformed_calls_are_errors(arguments: str, fragment: str) -> None:
    kit = Counter({})
    result = kit.call("add", arguments)
    assert result.error and fragment in result.content
    assert kit.db == {}


def test_unknown_hidden_and_faulty_tools() -> None:
    kit = Counter({})
    assert kit.call("nope" * 1000, "{}").error
    assert "unknown tool" in kit.call("is_positive", "{}").content
    assert kit.call("is_positive", "{}", hidden=True).content == "false"
    crash = kit.call("crash", "{}")
    assert crash.error and "KeyError" in crash.content
    assert kit.call("add", {"amount": 2}).content == "2"


def test_retail_tools_reject_wrong_types() -> None:
    kit = RetailTools(RetailDB.model_validate(build_db()))
    assert "valid string" in kit.call("get_order_details", '{"order_id": 5}').content
    assert "not found" in kit.call("get_order_details", '{"order_id": "#W0"}').content


def test_reference_tau2_files_load(shared_data) -> None:
    for name in ("airline", "retail"):
        tasks = load_tasks(shared_data / "tau2" / f"{name}-tasks.sample.json")
        assert tasks and all(t.user_scenario.instructions for t in tasks)
    retail = load_tasks(shared_data / "tau2" / "retail-tasks.sample.json")
    assert retail[0].gold_actions()[-1].name == "exchange_delivered_order_items"


@pytest.mark.parametrize(
    "mutate, fragment",
    [
        (lambda t: t.pop("user_scenario"), "user_scenario: Field required"),
        (lambda t: t.update(bogus=1), "bogus: Extra inputs are not permitted"),
        (lambda t: t["evaluation_criteria"].update(reward_basis=["DB", "DB"]), "repeats"),
        (lambda t: t["evaluation_criteria"].update(reward_basis=["MAGIC"]), "reward_basis"),
        (lambda t: t["evaluation_criteria"].update(reward_basis=[]), "empty"),
        (lambda t: t["evaluation_criteria"]["actions"][0].update(requestor="robot"), "requestor"),
    ],
)
def test_bad_tasks_fail_with_clear_errors(mutate, fragment: str) -> None:
    raw = json.loads(json.dumps(get_domain("retail").tasks()[0].model_dump(mode="json")))
    mutate(raw)
    with pytest.raises(TaskFormatError, match="task #0") as info:
        parse_tasks([raw])
    assert fragment in str(info.value)


def test_task_file_errors(tmp_path) -> None:
    with pytest.raises(TaskFormatError, match="expected a JSON list"):
        parse_tasks({"id": 1})
    bad = tmp_path / "t.json"
    bad.write_text("{oops")
    with pytest.raises(TaskFormatError, match="not valid JSON"):
        load_tasks(bad)
    with pytest.raises(TaskFormatError, match="cannot read"):
        load_tasks(tmp_path / "missing.json")
    task = get_domain("retail").tasks()[0]
    dup = [task.model_dump(mode="json")] * 2
    with pytest.raises(TaskFormatError, match="duplicate"):
        parse_tasks(dup)


def test_domain_check_names_the_problem() -> None:
    domain = get_domain("retail")
    raw = domain.tasks()[0].model_dump(mode="json")
    raw["evaluation_criteria"]["actions"][0]["name"] = "teleport"
    with pytest.raises(TaskFormatError, match="no tool 'teleport'"):
        check_against_domain(parse_tasks([raw])[0], domain)
    raw = domain.tasks()[0].model_dump(mode="json")
    raw["evaluation_criteria"]["actions"][-1]["arguments"]["order_id"] = 7
    with pytest.raises(TaskFormatError, match="order_id"):
        check_against_domain(parse_tasks([raw])[0], domain)


def test_initialization_data_naming_an_unknown_table_is_rejected() -> None:
    domain = get_domain("retail")
    raw = domain.tasks()[0].model_dump(mode="json")
    raw["initial_state"] = {"initialization_data": {"agent_data": {"ordres": {}}}}
    with pytest.raises(TaskFormatError, match=r"unknown table.*'ordres'"):
        check_against_domain(parse_tasks([raw])[0], domain)
    raw["initial_state"] = {"initialization_data": {"user_data": {"device": {}}}}
    with pytest.raises(TaskFormatError, match="user_data names unknown"):
        check_against_domain(parse_tasks([raw])[0], domain)
