"""Token counts and cost of model calls, with the bound a reported count must keep to be believed."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from pydantic import Field, model_validator

from harness.records.base import Record

MAX_TOKENS = 10**10
"""The most tokens a usage record is believed to count (a run's total included): far beyond any real one."""
TOKEN_FIELDS = ("input_tokens", "output_tokens", "reasoning_tokens", "cached_tokens")


def _believable(value: object) -> bool:
    """Whether a reported token count is a whole number from 0 to ``MAX_TOKENS`` (absent counts as 0)."""
    if value is None:
        return True
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return (isinstance(value, int) or value.is_integer()) and 0 <= value <= MAX_TOKENS


class Usage(Record):
    """Token counts of one or more calls; reasoning tokens are part of output tokens.

    ``unknown`` marks counts that leave out a call whose reported usage was not believed (negative,
    not an integer, absurdly large): they are then a lower bound, kept out of token budgets' and
    plots' totals. It is written only when true.
    """

    input_tokens: int = 0
    output_tokens: int = 0
    reasoning_tokens: int = 0
    cached_tokens: int = 0
    unknown: bool = Field(default=False, exclude_if=lambda unknown: not unknown)

    @model_validator(mode="before")
    @classmethod
    def _believed(cls, data: Any) -> Any:
        """Counts that are not whole numbers from 0 to ``MAX_TOKENS`` (``-100000000``, ``1e300``, ``12.5``,
        ``"12"``) are not believed: the usage becomes unknown, with no counts, whoever reported it."""
        if not isinstance(data, dict):
            return data
        counts = {name: data.get(name) for name in TOKEN_FIELDS}
        if all(_believable(value) for value in counts.values()):
            return {**data, **{name: int(value or 0) for name, value in counts.items()}}
        return {**{name: 0 for name in TOKEN_FIELDS}, "unknown": True}

    @property
    def total_tokens(self) -> int:
        """Input plus output tokens."""
        return self.input_tokens + self.output_tokens

    @classmethod
    def total(cls, usages: Iterable[Usage]) -> Usage:
        """The sum of ``usages`` (no tokens when there are none)."""
        return sum(usages, cls())

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            reasoning_tokens=self.reasoning_tokens + other.reasoning_tokens,
            cached_tokens=self.cached_tokens + other.cached_tokens,
            unknown=self.unknown or other.unknown,
        )


def summed_cost(costs: Sequence[float | None]) -> tuple[float | None, bool]:
    """The calls' total cost (None when no call's cost is known) and whether every call's cost is known."""
    known = [cost for cost in costs if cost is not None]
    return (math.fsum(known) if known else None), len(known) == len(costs)
