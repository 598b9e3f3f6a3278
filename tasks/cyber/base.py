"""Task bases shared by the cyber family: one option letter, one CWE id, one CVSS vector.

Each base reads the answer from the model's last line (the CTI-Bench protocol), falling
back where the published extraction does: a letter alone on the first line, the last full
``CWE-<n>`` or the last full 8-metric CVSS vector anywhere. None raises on model output:
an answer that cannot be parsed is ``unscored``.
"""

from __future__ import annotations

import random
from typing import ClassVar

from harness.api import (
    ArgsT,
    GenerateRequest,
    GenerationSettings,
    Metric,
    Output,
    Sample,
    SampleResult,
    Score,
    Task,
    accuracy_over_answered,
)
from scorers.choice import read_choice
from scorers.cti_ids import read_cwe
from scorers.cvss_score import (
    InvalidVector,
    base_score_deviation,
    find_cvss_vector,
    parse_cvss3,
    same_base_metrics,
)
from tasks.cyber.cvss_phrases import random_vector
from tasks.cyber.metrics import CVSS_DEVIATION, VectorAccumulator

COMMON_CWES: tuple[str, ...] = (
    "CWE-20",
    "CWE-22",
    "CWE-77",
    "CWE-78",
    "CWE-79",
    "CWE-89",
    "CWE-94",
    "CWE-119",
    "CWE-125",
    "CWE-190",
    "CWE-200",
    "CWE-269",
    "CWE-276",
    "CWE-287",
    "CWE-306",
    "CWE-352",
    "CWE-362",
    "CWE-400",
    "CWE-416",
    "CWE-434",
    "CWE-476",
    "CWE-502",
    "CWE-787",
    "CWE-798",
    "CWE-862",
    "CWE-863",
    "CWE-918",
)


class LetterChoiceTask(Task[ArgsT]):
    """A multiple-choice task with one correct letter; the target is that uppercase letter."""

    letters: ClassVar[str] = "ABCD"
    settings = GenerationSettings(max_tokens=1024, temperature=0.0)

    def score(self, sample: Sample, output: Output) -> Score:
        """Right when the letter on the last line is the target."""
        answer, rule = read_choice(output.text, self.letters)
        if answer is None:
            return Score.unscored(f"no single option letter ({', '.join(self.letters)}) on the last or first line")
        explanation = f"expected {sample.target}, got {answer}"
        return Score.of(answer == sample.target, answer=answer, explanation=explanation, read_from=rule)

    def reference_output(self, sample: Sample, request: GenerateRequest) -> str:
        """The right letter alone on the last line."""
        return str(sample.target)

    def random_output(self, sample: Sample, request: GenerateRequest, rng: random.Random) -> str:
        """A uniformly random letter."""
        return rng.choice(self.letters)


class CweTask(Task[ArgsT]):
    """Map a description to its CWE; the target is ``"CWE-<n>"``."""

    settings = GenerationSettings(max_tokens=1024, temperature=0.0)

    def score(self, sample: Sample, output: Output) -> Score:
        """Right when the one CWE id on the last line is the target."""
        answer, rule = read_cwe(output.text)
        if answer is None:
            return Score.unscored("no CWE id on the last line or anywhere (or several on the last line)")
        explanation = f"expected {sample.target}, got {answer}"
        return Score.of(answer == sample.target, answer=answer, explanation=explanation, read_from=rule)

    def reference_output(self, sample: Sample, request: GenerateRequest) -> str:
        """A short justification, then the CWE id alone on the last line."""
        return f"The description matches the weakness class below.\n{sample.target}"

    def random_output(self, sample: Sample, request: GenerateRequest, rng: random.Random) -> str:
        """A random common CWE id."""
        return rng.choice(COMMON_CWES)


class CvssVectorTask(Task[ArgsT]):
    """Predict the CVSS v3 base vector; scored by base-score deviation (MAD over the task).

    A sample scores 1 when all eight base metrics match; details carry ``abs_deviation``.
    """

    settings = GenerationSettings(max_tokens=2048, temperature=0.0)

    def score(self, sample: Sample, output: Output) -> Score:
        """Absolute base-score deviation of the predicted vector; unscored when it is invalid."""
        raw = find_cvss_vector(output.text)
        if raw is None:
            return Score.unscored("no CVSS v3 vector in the output", invalid_vector=True)
        try:
            predicted = parse_cvss3(raw)
        except InvalidVector as exc:
            return Score.unscored(f"invalid CVSS vector {raw[:120]!r}: {exc}", invalid_vector=True)
        truth = parse_cvss3(str(sample.target))
        deviation = base_score_deviation(predicted, truth)
        exact = same_base_metrics(predicted, truth)
        return Score.of(
            exact,
            answer=predicted.base_vector(),
            explanation=f"base score {predicted.base_score} vs {truth.base_score}",
            abs_deviation=deviation,
            predicted_score=predicted.base_score,
            true_score=truth.base_score,
        )

    def reference_output(self, sample: Sample, request: GenerateRequest) -> str:
        """The true vector alone on the last line."""
        return f"Summary of the base metrics follows.\n{sample.target}"

    def random_output(self, sample: Sample, request: GenerateRequest, rng: random.Random) -> str:
        """A uniformly random valid CVSS 3.1 base vector."""
        return random_vector(rng)

    def metrics(self) -> tuple[Metric, ...]:
        """The per-sample readings of ``mad`` and ``exact_vector`` (what ``frontier compare`` pairs)."""
        return (
            Metric(
                "mad",
                _abs_deviation,
                "absolute base-score deviation over valid vectors",
                kind="mean",
                scale=CVSS_DEVIATION,
            ),
            Metric("exact_vector", accuracy_over_answered, "all eight base metrics right; invalid counts 0"),
        )

    def accumulator(self, seed: int = 0) -> VectorAccumulator:
        """MAD of base scores, exact vector match and the invalid-vector rate."""
        return VectorAccumulator(seed)


def _abs_deviation(result: SampleResult) -> float | None:
    """A scored vector's absolute base-score deviation; None for an invalid vector or a failed evaluation."""
    deviation = result.score.details.get("abs_deviation")
    return float(deviation) if result.score.outcome == "scored" and isinstance(deviation, (int, float)) else None
