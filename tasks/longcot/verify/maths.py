"""Verifier of the math templates: a list of answers compared component by component with
sympy (exact where sizes allow, high-precision numerics otherwise) under a per-answer time limit."""

from __future__ import annotations

import time

from scorers.literal import first_bracketed
from scorers.sympy_equiv import compare
from tasks.longcot.data import Question
from tasks.longcot.verdict import Verdict
from tasks.longcot.verify.extract import first_line, split_top_level

ANSWER_BUDGET_S = 10.0
COMPONENT_LIMIT_S = 4.0
MAX_COMPONENTS = 64


def gold_components(answer: object) -> list[str]:
    """The stored answer as a list of component strings."""
    if isinstance(answer, list):
        return [str(item).strip() for item in answer]
    text = str(answer).strip()
    return split_top_level(text) if text.startswith("[") else [text]


def verify_math(question: Question, payload: str, budget_s: float = ANSWER_BUDGET_S) -> Verdict:
    """Correct when every component matches; any mismatch is wrong; undecidable ones are unresolved."""
    expected = gold_components(question.answer)
    span = first_bracketed(payload, "[")
    predicted = split_top_level(span) if span is not None else split_top_level(first_line(payload))
    if not predicted or not any(predicted):
        return Verdict.unparsed("no answer list after 'solution ='", payload[:200])
    if len(predicted) != len(expected) or len(predicted) > MAX_COMPONENTS:
        return Verdict.check(False, predicted, f"expected {len(expected)} answers, got {len(predicted)}")
    deadline = time.monotonic() + budget_s
    unresolved = []
    for index, (want, got) in enumerate(zip(expected, predicted, strict=False)):
        remaining = deadline - time.monotonic()
        status = (
            compare(want, got, timeout_s=max(0.05, min(COMPONENT_LIMIT_S, remaining)))
            if remaining > 0
            else "unresolved"
        )
        if status == "mismatch":
            return Verdict.check(False, predicted, f"answer {index + 1}: {got!r} differs from {want!r}")
        if status == "unresolved":
            unresolved.append(index + 1)
    if unresolved:
        return Verdict(
            "unresolved", ", ".join(predicted)[:300], f"answers {unresolved} could not be decided deterministically"
        )
    return Verdict.check(True, predicted, "every answer equivalent")
