"""LongCoT's official decision on one answer: the rules of the benchmark's own verifier
(LongHorizonReasoning/longcot ``src/_verifier.py`` and ``src/_verify/*``, LLM fallback off),
label-less fallbacks included, with the upstream bugs listed in the README decided as a careful
reader would. Never raises on model output; a malformed question raises ValueError naming it.

One module a domain (``chem``, ``chess``, ``cs``, ``logic``, ``maths``);
``parsing`` holds upstream's answer readers that they share.
"""

from __future__ import annotations

from tasks.longcot.catalog import check_template
from tasks.longcot.data import Question
from tasks.longcot.official.chem import verify_chemistry_official
from tasks.longcot.official.chess import verify_chess_official
from tasks.longcot.official.cs import verify_cs_official
from tasks.longcot.official.logic import verify_logic_official
from tasks.longcot.official.maths import verify_math_official
from tasks.longcot.official.parsing import bounded
from tasks.longcot.verdict import DomainVerifier, Verdict, decide

OFFICIAL_VERIFIERS: dict[str, DomainVerifier] = {
    "chemistry": verify_chemistry_official,
    "chess": verify_chess_official,
    "cs": verify_cs_official,
    "logic": verify_logic_official,
    "math": verify_math_official,
}


def verify_official(question: Question, output: str) -> Verdict:
    """Upstream's verdict on ``output`` (the whole response: upstream reads past the label)."""
    check_template(question)
    return decide(OFFICIAL_VERIFIERS, question, bounded(output or ""))
