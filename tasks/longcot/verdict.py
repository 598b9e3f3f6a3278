"""The outcome of verifying one LongCoT answer."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Status = Literal["correct", "wrong", "unparsed", "unresolved"]


@dataclass(frozen=True)
class Verdict:
    """``correct``/``wrong``; ``unparsed`` (no readable answer: unscored); ``unresolved`` (math or
    chemistry that the deterministic checks could not decide: scored wrong, eligible for a judge)."""

    status: Status
    answer: str | None = None
    explanation: str = ""

    @classmethod
    def check(cls, ok: bool, answer: object, explanation: str = "") -> Verdict:
        """``correct`` when ``ok``, else ``wrong``; ``answer`` is shortened for the log."""
        return cls("correct" if ok else "wrong", short(answer), explanation)

    @classmethod
    def unparsed(cls, explanation: str, answer: object = None) -> Verdict:
        """An answer that could not be read."""
        return cls("unparsed", short(answer) if answer is not None else None, explanation)


def short(value: object, limit: int = 300) -> str:
    """``value`` as text, cut to ``limit`` characters."""
    text = value if isinstance(value, str) else repr(value)
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} chars)"
