"""Candidate answers judged by the task: normalised extracted answers, majority vote, verifier values."""

from __future__ import annotations

import random
import re
from collections.abc import Sequence

from harness.context import SampleContext, active_sample
from harness.types import Output, Score


async def _score(context: SampleContext, text: str) -> Score | None:
    from harness.executors.scoring import score_safely

    score = await score_safely(context.task, context.sample, Output(text=text))
    return None if score.outcome == "error" else score


async def candidate_scores(texts: Sequence[str]) -> list[Score | None]:
    """The task's score of each candidate text (None outside a run or when scoring failed)."""
    context = active_sample()
    if context is None:
        return [None] * len(texts)
    return [await _score(context, text) for text in texts]


def normalised_answer(text: str, score: Score | None) -> str | None:
    """The answer a candidate gives, for voting.

    In a run: the answer the task's scorer extracted; None when it could not parse one.
    A scorer that extracts no answer but scores the output falls back to the text with
    whitespace collapsed. Outside a run (no scorer): that collapsed text.
    """
    if score is not None:
        if score.answer is not None:
            return score.answer
        if score.outcome != "scored":
            return None
    collapsed = re.sub(r"\s+", " ", text).strip()
    return collapsed or None


def majority(
    answers: Sequence[str | None], weights: Sequence[float] | None = None, seed: int = 0
) -> tuple[str | None, dict[str, float]]:
    """The answer with the largest (weighted) vote, ties broken by ``seed``; None when no answer parsed.

    Returns the winner and the tally.
    """
    tally: dict[str, float] = {}
    for index, answer in enumerate(answers):
        if answer is not None:
            tally[answer] = tally.get(answer, 0.0) + (1.0 if weights is None else float(weights[index]))
    if not tally:
        return None, {}
    best = max(tally.values())
    tied = sorted(answer for answer, votes in tally.items() if abs(votes - best) <= 1e-12)
    winner = tied[0] if len(tied) == 1 else random.Random(seed).choice(tied)
    return winner, dict(tally)
