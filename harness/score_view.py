"""A score's details laid out one criterion a row, for the terminal and the report alike.

Families put what decided a score in ``Score.details`` (τ²'s reward breakdown and each expected
action, COMMUNICATE string and environment assertion; Coins' verdict and obligation counts;
LongCoT's decisions and extraction; cyber's extracted answer). The layout is the same for all:
a nested object becomes dotted names, a list of objects one row per item, and a row whose item
says ``met``/``match``/``passed``/``correct`` (a boolean) is marked held or not. Details are
untrusted (a rescore reads them from a log): rows, depth and text are bounded.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from harness.types import Score

MAX_ROWS = 400
MAX_DEPTH = 6
MAX_VALUE = 600
VERDICT_KEYS = ("met", "match", "action_match", "passed", "correct", "ok", "found")
"""Fields whose boolean says whether an item's check held."""


@dataclass(frozen=True)
class Criterion:
    """One row: what was checked, what was found, and whether it held (None: not a pass/fail)."""

    name: str
    value: str
    held: bool | None = None


def _text(value: Any) -> str:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= MAX_VALUE else text[:MAX_VALUE] + f"… [{len(text) - MAX_VALUE} more characters]"


def _item(name: str, item: Mapping[str, Any]) -> Criterion:
    """A list item that is an object: its verdict field says whether it held, the rest is its value."""
    verdict = next((key for key in VERDICT_KEYS if isinstance(item.get(key), bool)), None)
    rest = {key: value for key, value in item.items() if key != verdict}
    value = (
        _text(next(iter(rest.values())))
        if len(rest) == 1
        else _text(" · ".join(f"{k}: {_text(v)}" for k, v in rest.items()))
    )
    return Criterion(name, value, item[verdict] if verdict else None)


def _rows(name: str, value: Any, depth: int) -> Iterator[Criterion]:
    if isinstance(value, Mapping) and value and depth < MAX_DEPTH:
        for key, inner in value.items():
            yield from _rows(f"{name}.{key}" if name else str(key), inner, depth + 1)
    elif isinstance(value, (list, tuple)) and value and all(isinstance(v, Mapping) for v in value):
        for index, item in enumerate(value, start=1):
            yield _item(f"{name} {index}", item)
    elif isinstance(value, bool):
        yield Criterion(name, "yes" if value else "no", value)
    else:
        yield Criterion(name, _text(value))


def criteria(details: Mapping[str, Any]) -> list[Criterion]:
    """The rows of ``details`` in their order (at most :data:`MAX_ROWS`, the last saying how many more)."""
    rows: list[Criterion] = []
    if not details:
        return rows
    for row in _rows("", details, 0):
        if len(rows) == MAX_ROWS:
            rows.append(Criterion("…", "more rows not shown"))
            break
        rows.append(row)
    return rows


def verdict(score: Score) -> str:
    """What a score says in one word: correct, wrong, partial (a score between), unscored or error."""
    if score.outcome != "scored":
        return score.outcome
    if score.correct is not None:
        return "correct" if score.correct else "wrong"
    if score.value is None:
        return "unscored"
    return "correct" if score.value >= 1 else "wrong" if score.value <= 0 else "partial"
