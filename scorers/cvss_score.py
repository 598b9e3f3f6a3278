"""CVSS v3 vectors: finding one in model output, validating it and computing base scores.

Base scores come from the ``cvss`` package (the FIRST specification's formulas), which
accepts both the ``CVSS:3.0/`` and ``CVSS:3.1/`` prefixes. CTI-VSP and the generated
``cyber-gen/cvss`` task score a prediction by the absolute difference between the base
scores of the predicted and the true vectors.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from scorers.extract import last_nonempty_line, tail

BASE_METRICS: tuple[str, ...] = ("AV", "AC", "PR", "UI", "S", "C", "I", "A")
MAX_VECTOR_CHARS = 200

_CANDIDATE = re.compile(
    r"(?:CVSS:\d+(?:\.\d+)?/)?AV:[A-Za-z0-9]+(?:/[A-Za-z]{1,3}:[A-Za-z0-9]+){0,20}",
    re.IGNORECASE,
)


class InvalidVector(ValueError):
    """A string that is not a valid CVSS v3.0/v3.1 vector; the message says why."""


@dataclass(frozen=True)
class CvssVector:
    """A validated CVSS v3 vector: its canonical text, base metrics and base score."""

    vector: str
    base_score: float
    metrics: dict[str, str] = field(default_factory=dict)

    def base_vector(self) -> str:
        """The base metrics only, as ``CVSS:3.1/AV:../A:..`` in specification order."""
        return "CVSS:3.1/" + "/".join(f"{m}:{self.metrics[m]}" for m in BASE_METRICS)


def parse_cvss3(vector: str) -> CvssVector:
    """Validate ``vector`` (``CVSS:3.x/`` prefix optional) and compute its base score.

    Raises InvalidVector naming the problem (unknown prefix, missing or duplicate metric,
    unknown value).
    """
    from cvss import CVSS3
    from cvss.exceptions import CVSSError

    text = (vector or "").strip()
    if not text:
        raise InvalidVector("empty vector")
    if len(text) > MAX_VECTOR_CHARS:
        raise InvalidVector(f"vector longer than {MAX_VECTOR_CHARS} characters")
    text = text.upper()
    if not text.startswith("CVSS:"):
        text = "CVSS:3.1/" + text
    try:
        parsed = CVSS3(text)
    except CVSSError as exc:
        raise InvalidVector(str(exc)) from None
    metrics = {m: str(parsed.metrics[m]) for m in BASE_METRICS}
    return CvssVector(vector=parsed.clean_vector(), base_score=float(parsed.base_score), metrics=metrics)


def _strip_candidate(raw: str) -> str:
    """A regex match without the trailing punctuation models put after vectors."""
    return raw.rstrip(".,;:)]*`'\"")


def _is_full(candidate: str) -> bool:
    """True when ``candidate`` names each of the eight base metrics."""
    names = {part.split(":", 1)[0].upper() for part in candidate.split("/") if ":" in part}
    return set(BASE_METRICS) <= names


def find_cvss_vector(text: str) -> str | None:
    """The full vector on the last non-empty line, else the last full vector anywhere (the published rule).

    A full vector names all eight base metrics. When the output has none, the last partial
    candidate (such as a lone ``AV:N`` on the last line) is returned so that it is reported
    as invalid. The returned string is not validated; pass it to ``parse_cvss3``.
    """
    if not text:
        return None
    line = last_nonempty_line(text)
    on_line = [_strip_candidate(c) for c in _CANDIDATE.findall(line or "")]
    full = [c for c in on_line if _is_full(c)]
    if full:
        return full[-1]
    anywhere = [_strip_candidate(c) for c in _CANDIDATE.findall(tail(text))]
    full = [c for c in anywhere if _is_full(c)]
    if full:
        return full[-1]
    if on_line:
        return on_line[-1]
    return anywhere[-1] if anywhere else None


def base_score_deviation(predicted: CvssVector, truth: CvssVector) -> float:
    """Absolute difference of the base scores, rounded to one decimal as CVSS scores are."""
    return round(abs(predicted.base_score - truth.base_score), 1)


def same_base_metrics(predicted: CvssVector, truth: CvssVector) -> bool:
    """True when all eight base metrics agree (the prefix version may differ)."""
    return predicted.metrics == truth.metrics
