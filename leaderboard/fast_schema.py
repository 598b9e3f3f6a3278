"""Fast confirmation that a submission is schema-valid.

Per-sample scores are most of a submission (30 tasks x 1,500 samples is common), and a
generic validator spends most of its time on them. Here the schema is compiled with
fastjsonschema *without* the sample item schema, and the items are confirmed by one tight
check whose constants are read from the schema itself. The check is sound, never lenient:
anything it is unsure of (an unusual type, an extra key) makes it answer "not confirmed",
and the caller then validates the whole document the slow, exact way.
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

SAMPLE_ITEM_KEYWORDS = {"type", "additionalProperties", "required", "properties"}
SAMPLE_PROPERTIES = {"id", "value", "outcome", "tokens"}


def sample_item_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """The JSON Schema of one per-sample score in the submission schema."""
    return schema["$defs"]["task"]["properties"]["samples"]["items"]


def sample_checker(schema: dict[str, Any]) -> Callable[[Any], bool]:
    """A predicate that is True only for a sample item the schema accepts.

    Raises ValueError when the item schema uses keywords or properties this check does not
    know, so that a schema change cannot silently loosen validation.
    """
    item = sample_item_schema(schema)
    properties = item["properties"]
    if set(item) != SAMPLE_ITEM_KEYWORDS or set(properties) != SAMPLE_PROPERTIES or item["additionalProperties"]:
        raise ValueError("the sample item schema changed; update leaderboard/fast_schema.py")
    allowed = frozenset(properties)
    required = frozenset(item["required"])
    id_limit = int(properties["id"]["maxLength"])
    outcomes = frozenset(properties["outcome"]["enum"])
    numbers = (int, float)

    def check(sample: Any) -> bool:
        if type(sample) is not dict or not (required <= sample.keys() <= allowed):
            return False
        ident, value, outcome = sample["id"], sample["value"], sample["outcome"]
        if type(ident) is not str or len(ident) > id_limit or type(outcome) is not str or outcome not in outcomes:
            return False
        if value is not None and type(value) not in numbers:
            return False
        tokens = sample.get("tokens", 0)
        return type(tokens) is int and tokens >= 0

    return check


def fast_confirmer(schema: dict[str, Any]) -> Callable[[Any], bool] | None:
    """A function that is True when a document is certainly valid against ``schema`` (False means
    "validate it exactly"); None when fastjsonschema is not installed."""
    try:
        import fastjsonschema
    except ImportError:
        return None
    reduced = copy.deepcopy(schema)
    reduced["$defs"]["task"]["properties"]["samples"] = {"type": "array"}
    validate = fastjsonschema.compile(reduced)
    check = sample_checker(schema)

    def confirm(data: Any) -> bool:
        try:
            validate(data)
        except fastjsonschema.JsonSchemaValueException:
            return False
        return all(all(map(check, task.get("samples", ()))) for task in data["tasks"].values())

    return confirm
