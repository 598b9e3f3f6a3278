"""The verdicts a spec can get, and the prover model's part in a report (``coins_rocq.prover``).

Kept apart from the checker and the prover so that both can name them without importing each other.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

Verdict = Literal["correct", "too_strong", "too_weak", "undecided", "invalid"]
VERDICTS: tuple[Verdict, ...] = ("correct", "too_strong", "too_weak", "undecided", "invalid")

Outcome = Literal["proved", "refuted", "not proved", "refused"]


@dataclass
class ProverAttempt:
    """What became of one obligation sent to the prover: the outcome, after how many answers, and why."""

    index: int
    outcome: Outcome = "not proved"
    tries: int = 0
    reason: str = ""


@dataclass
class ProverSummary:
    """The prover's part in one report: the obligations it was sent and whether the verdict rests on it."""

    model: str
    ladder_verdict: Verdict
    attempts: list[ProverAttempt] = field(default_factory=list)
    decides_verdict: bool = False

    def counts(self) -> dict[str, int]:
        """How many obligations were sent, and how many ended each way."""
        table = {"sent": len(self.attempts), "proved": 0, "refuted": 0, "not proved": 0, "refused": 0}
        for attempt in self.attempts:
            table[attempt.outcome] += 1
        return table

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready form."""
        return {
            "model": self.model,
            "counts": self.counts(),
            "ladder_verdict": self.ladder_verdict,
            "decides_verdict": self.decides_verdict,
            "obligations": [
                {"index": a.index, "outcome": a.outcome, "tries": a.tries, "reason": a.reason} for a in self.attempts
            ],
        }

    def lines(self) -> list[str]:
        """Plain-text lines for the report: the counts, then why each obligation left unknown stayed so."""
        counts = self.counts()
        head = f"prover {self.model}: " + ", ".join(f"{k} {v}" for k, v in counts.items())
        if self.decides_verdict:
            head += f"; the verdict rests on the prover (ladder alone: {self.ladder_verdict})"
        lines = [head]
        for a in self.attempts:
            if a.outcome in ("not proved", "refused"):
                lines.append(f"  #{a.index} {a.outcome} after {a.tries} answer(s): {a.reason[:160]}")
        return lines
