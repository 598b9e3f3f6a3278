"""Process-reward-model reranking: per-step scores, aggregated, then (weighted) best-of-N.

``ProcessRewardModel.score_steps(problem, steps)`` gives each step a score in [0, 1] (None
when the PRM gave none). ``JudgePRM`` is the reference implementation: any adapter used
as a judge, one call per candidate, labelled ``prm`` in the log so its tokens are counted
apart from the generator's. ``--method prm:n=8,aggregate=min,weighted=true[,judge=SPEC]``.
"""

from __future__ import annotations

import asyncio
import math
import re
from collections.abc import Callable, Sequence
from typing import Protocol

from harness.adapters.base import ModelAdapter, close_adapter
from harness.context import labelled_calls
from harness.methods.answers import candidate_scores, majority, normalised_answer
from harness.methods.params import MethodParams
from harness.methods.selectors import Selection
from harness.types import GenerateRequest, Generation, Message

StepScores = list[float | None]
MAX_STEPS = 64
_STEP_LINE = re.compile(r"^\s*\**\s*step\s*(\d+)\s*\**\s*[:=\-]\s*\**\s*([-+]?\d*\.?\d+)\s*(%?)", re.IGNORECASE)


class ProcessRewardModel(Protocol):
    """Scores each step of a solution."""

    async def score_steps(self, problem: str, steps: Sequence[str]) -> StepScores:
        """One score in [0, 1] per step, None where the PRM gave none."""
        ...


def _product(values: Sequence[float]) -> float:
    return math.prod(values)


AGGREGATIONS: dict[str, Callable[[Sequence[float]], float]] = {
    "min": min,
    "mean": lambda values: math.fsum(values) / len(values),
    "last": lambda values: values[-1],
    "product": _product,
}


def aggregate(scores: StepScores, how: str) -> float | None:
    """The candidate's score from its step scores; None when any step is unscored or there are none."""
    if not scores or any(s is None for s in scores):
        return None
    return AGGREGATIONS[how]([float(s) for s in scores if s is not None])


def split_steps(text: str, max_steps: int = MAX_STEPS) -> list[str]:
    """A solution's steps: its paragraphs, or its lines when it has one paragraph.

    Past ``max_steps``, the tail is merged into the last step.
    """
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", text) if p.strip()]
    steps = paragraphs if len(paragraphs) > 1 else [line.strip() for line in text.splitlines() if line.strip()]
    if len(steps) > max_steps:
        steps = [*steps[: max_steps - 1], "\n".join(steps[max_steps - 1 :])]
    return steps


def parse_step_scores(reply: str, count: int) -> StepScores:
    """Scores from a judge's ``Step k: p`` lines (``p`` in [0, 1], or a percentage); others are None."""
    scores: StepScores = [None] * count
    for line in reply.splitlines():
        match = _STEP_LINE.match(line)
        if not match:
            continue
        index, value = int(match.group(1)) - 1, float(match.group(2))
        if match.group(3):
            value /= 100.0
        if 0 <= index < count and 0.0 <= value <= 1.0 and scores[index] is None:
            scores[index] = value
    return scores


JUDGE_INSTRUCTIONS = (
    "You are a process reward model. Below are a problem and a solution split into numbered steps. "
    "For every step, judge whether it is correct and useful given the problem and the steps before it. "
    "Reply with exactly one line per step, 'Step k: p', where p is the probability from 0 to 1 that "
    "step k is correct. Write nothing else."
)


class JudgePRM:
    """A PRM backed by any adapter used as a judge: one greedy call per solution."""

    def __init__(self, judge: ModelAdapter, max_tokens: int = 512) -> None:
        self.judge = judge
        self.max_tokens = max_tokens

    def request(self, problem: str, steps: Sequence[str]) -> GenerateRequest:
        """The judge's request for ``steps``."""
        numbered = "\n".join(f"Step {i}: {step}" for i, step in enumerate(steps, 1))
        prompt = f"{JUDGE_INSTRUCTIONS}\n\nProblem:\n{problem}\n\nSolution:\n{numbered}"
        return GenerateRequest(
            messages=(Message(role="user", content=prompt),), max_tokens=self.max_tokens, temperature=0.0
        )

    async def score_steps(self, problem: str, steps: Sequence[str]) -> StepScores:
        """Ask the judge (a logged ``prm`` call) and parse its per-step scores."""
        if not steps:
            return []
        with labelled_calls("prm"):
            reply = await self.judge.generate(self.request(problem, steps))
        return parse_step_scores(reply.text, len(steps))

    async def aclose(self) -> None:
        """Close the judge adapter."""
        await close_adapter(self.judge)


def problem_text(request: GenerateRequest) -> str:
    """The problem a request poses: its user messages."""
    return "\n\n".join(m.content or "" for m in request.messages if m.role == "user")


class PrmSelector:
    """Aggregated PRM scores; weighted mode sums them over candidates reaching the same answer."""

    label = "prm"
    upper_bound = False

    def __init__(
        self, prm: ProcessRewardModel, how: str = "min", weighted: bool = True, owns_prm: bool = False
    ) -> None:
        self.prm = prm
        self.how = how
        self.weighted = weighted
        self.owns_prm = owns_prm

    @classmethod
    def from_params(cls, inner: ModelAdapter, params: MethodParams) -> PrmSelector:
        """Built from ``aggregate``, ``weighted``, ``judge`` (an adapter spec; default the inner model) and
        ``judge_max_tokens``."""
        how = params.choice("aggregate", "min", AGGREGATIONS)
        weighted = params.flag("weighted", True)
        max_tokens = params.integer("judge_max_tokens", 512, minimum=1) or 512
        spec = params.text("judge", None)
        if spec is None:
            return cls(JudgePRM(inner, max_tokens), how, weighted)
        from harness.calls import active_call_settings

        return cls(JudgePRM(active_call_settings().resolve(spec), max_tokens), how, weighted, owns_prm=True)

    async def select(self, request: GenerateRequest, candidates: list[Generation], seed: int) -> Selection:
        """Score every candidate's steps and pick by aggregated (and, if weighted, answer-summed) score."""
        problem = problem_text(request)
        steps = [split_steps(c.text) for c in candidates]
        step_scores = await asyncio.gather(*(self.prm.score_steps(problem, s) for s in steps))
        scores = [aggregate(s, self.how) for s in step_scores]
        details: dict[str, object] = {
            "aggregate": self.how,
            "weighted": self.weighted,
            "scores": scores,
            "step_scores": list(step_scores),
        }
        ranked = [s if s is not None else float("-inf") for s in scores]
        if self.weighted:
            texts = [c.text for c in candidates]
            answers = [normalised_answer(t, s) for t, s in zip(texts, await candidate_scores(texts), strict=True)]
            weights = [s if s is not None else 0.0 for s in scores]
            winner, tally = majority(answers, weights, seed)
            details.update(answers=answers, weighted_votes=tally, winner=winner)
            if winner is not None:
                members = [i for i, a in enumerate(answers) if a == winner]
                index = max(members, key=lambda i: (ranked[i], -i))
                return Selection(index, details)
        index = max(range(len(ranked)), key=lambda i: (ranked[i], -i))
        return Selection(index, details)

    async def aclose(self) -> None:
        """Close the judge when this selector built it."""
        if self.owns_prm:
            await close_adapter(self.prm)
