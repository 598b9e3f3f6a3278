"""The outcome of verifying one LongCoT answer, and the per-domain dispatch both verifiers use."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from tasks.longcot.data.question import Question

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


DomainVerifier = Callable[["Question", str], Verdict]


def decide(verifiers: Mapping[str, DomainVerifier], question: Question, answer: str) -> Verdict:
    """The verdict of the verifier of ``question``'s domain on ``answer``; too deep or too large is ``unparsed``."""
    try:
        return verifiers[question.domain](question, answer)
    except (RecursionError, MemoryError):
        return Verdict.unparsed("answer too deeply nested or too large to read")
