"""LongCoT's official decision on one answer: the rules of the benchmark's own verifier
(LongHorizonReasoning/longcot ``src/_verifier.py`` and ``src/_verify/*``, LLM fallback off),
label-less fallbacks included, with the upstream bugs listed in the README decided as a careful
reader would. Never raises on model output; a malformed question raises ValueError naming it.
"""

from __future__ import annotations

from collections.abc import Callable

from tasks.longcot.data import Question
from tasks.longcot.official_parsing import bounded
from tasks.longcot.verdict import Verdict
from tasks.longcot.verify import check_template


def _verifier(domain: str) -> Callable[[Question, str], Verdict]:
    if domain == "chemistry":
        from tasks.longcot.official_chem import verify_chemistry_official

        return verify_chemistry_official
    if domain == "chess":
        from tasks.longcot.official_chess import verify_chess_official

        return verify_chess_official
    if domain == "cs":
        from tasks.longcot.official_cs import verify_cs_official

        return verify_cs_official
    if domain == "logic":
        from tasks.longcot.official_logic import verify_logic_official

        return verify_logic_official
    from tasks.longcot.official_math import verify_math_official

    return verify_math_official


def verify_official(question: Question, output: str) -> Verdict:
    """Upstream's verdict on ``output`` (the whole response: upstream reads past the label)."""
    check_template(question)
    try:
        return _verifier(question.domain)(question, bounded(output or ""))
    except (RecursionError, MemoryError):
        return Verdict.unparsed("answer too deeply nested or too large to read")
