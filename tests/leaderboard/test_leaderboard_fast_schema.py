"""The fast schema confirmation never accepts what jsonschema rejects, and accepts ordinary submissions."""

from __future__ import annotations

import copy
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from conftest import binary

from leaderboard.fast_schema import fast_confirmer, sample_checker, sample_item_schema
from leaderboard.submission import build_submission
from leaderboard.validate import schema


@pytest.fixture
def good(make_run: Callable[..., Path]) -> dict[str, Any]:
    """A valid submission with per-sample scores."""
    return build_submission([make_run("good", tasks={"demo/arith": [*binary(7, 10), (None, "unscored")]})])


ITEMS: list[Any] = [
    {"id": "a", "value": 1.0, "outcome": "scored"},
    {"id": "a", "value": 0, "outcome": "scored", "tokens": 12},
    {"id": "a", "value": None, "outcome": "unscored"},
    {"id": "a", "value": True, "outcome": "scored"},
    {"id": "a", "value": "1", "outcome": "scored"},
    {"id": 3, "value": 1.0, "outcome": "scored"},
    {"id": "x" * 1001, "value": 1.0, "outcome": "scored"},
    {"id": "x" * 1000, "value": 1.0, "outcome": "scored"},
    {"id": "a", "value": 1.0, "outcome": "lost"},
    {"id": "a", "value": 1.0, "outcome": ["scored"]},
    {"id": "a", "value": 1.0},
    {"id": "a", "value": 1.0, "outcome": "scored", "extra": 1},
    {"id": "a", "value": 1.0, "outcome": "scored", "tokens": -1},
    {"id": "a", "value": 1.0, "outcome": "scored", "tokens": 1.5},
    {"id": "a", "value": 1.0, "outcome": "scored", "tokens": False},
    ["id", "value", "outcome"],
    None,
    "sample",
]


@pytest.mark.parametrize("item", ITEMS, ids=[repr(i)[:40] for i in ITEMS])
def test_sample_check_is_never_more_lenient_than_the_schema(item: Any) -> None:
    check = sample_checker(schema())
    valid = jsonschema.Draft202012Validator({**sample_item_schema(schema()), "$defs": schema()["$defs"]}).is_valid(item)
    if check(item):
        assert valid
    if isinstance(item, dict) and set(item) <= {"id", "value", "outcome"} and valid and type(item["value"]) is not bool:
        assert check(item), "an ordinary valid sample should be confirmed"


def test_a_changed_item_schema_is_refused() -> None:
    changed = copy.deepcopy(schema())
    sample_item_schema(changed)["properties"]["weight"] = {"type": "number"}
    with pytest.raises(ValueError, match="sample item schema changed"):
        sample_checker(changed)


def test_confirmer_rejects_a_bad_sample_deep_in_a_valid_document(good: dict[str, Any]) -> None:
    confirm = fast_confirmer(schema())
    assert confirm is not None and confirm(good)
    task = next(iter(good["tasks"]))
    bad = copy.deepcopy(good)
    bad["tasks"][task]["samples"][-1]["value"] = "0.5"
    assert not confirm(bad)
    bad = copy.deepcopy(good)
    bad["tasks"][task]["usage"]["input_tokens"] = -5
    assert not confirm(bad)
