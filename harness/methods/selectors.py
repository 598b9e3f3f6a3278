"""Selectors for best-of-N: which of N candidates to return, and why.

A selector gets the request and the candidates and returns the chosen index with
details for the sample's notes. Reward-model selectors (REAR, PRM) live in their own
modules; this one holds the two that need no model: majority vote and the verifier.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol

from harness.context import active_sample
from harness.errors import AdapterError
from harness.methods.answers import candidate_scores, majority, normalised_answer
from harness.types import GenerateRequest, Generation


@dataclass(frozen=True)
class Selection:
    """The chosen candidate's index and what led to it."""

    index: int
    details: dict[str, Any] = field(default_factory=dict)


class Selector(Protocol):
    """Picks one of N candidates."""

    label: str
    upper_bound: bool

    async def select(self, request: GenerateRequest, candidates: list[Generation], seed: int) -> Selection:
        """The chosen candidate."""
        ...


class MajoritySelector:
    """Majority vote over the task's normalised answers; ties broken by the seed.

    Returns the first candidate that gives the winning answer (the first candidate when
    no candidate's answer could be parsed).
    """

    label = "majority"
    upper_bound = False

    async def select(self, request: GenerateRequest, candidates: list[Generation], seed: int) -> Selection:
        """The first candidate with the most voted answer."""
        texts = [c.text for c in candidates]
        scores = await candidate_scores(texts)
        answers = [normalised_answer(t, s) for t, s in zip(texts, scores, strict=False)]
        winner, tally = majority(answers, seed=seed)
        index = answers.index(winner) if winner is not None else 0
        return Selection(index, {"answers": answers, "votes": tally, "winner": winner})


class VerifierSelector:
    """UPPER BOUND: picks a candidate the task's own scorer (with the reference answer) rates best.

    This is not a deployable method: it reads the reference. Runs using it are labelled
    as an upper bound in the method name, the returned generation and the sample's notes.
    """

    label = "verifier-upper-bound"
    upper_bound = True

    async def select(self, request: GenerateRequest, candidates: list[Generation], seed: int) -> Selection:
        """The first candidate with the highest score value."""
        if active_sample() is None:
            raise AdapterError("best_of_n selector=verifier needs the sample being solved (it runs only inside a run)")
        scores = await candidate_scores([c.text for c in candidates])
        values = [s.value if s is not None and s.value is not None else float("-inf") for s in scores]
        index = max(range(len(values)), key=lambda i: (values[i], -i))
        return Selection(index, {"verifier_values": [v if v != float("-inf") else None for v in values]})
