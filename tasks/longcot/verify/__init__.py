"""LongCoT's strict verifier: extract the ``solution =`` payload, then decide it by the domain's rules.

One module a domain (``chem``, ``chess``, ``cs``, ``logic``, ``maths``; RDKit and python-chess are imported
only when a chemistry or chess answer is decided); ``extract`` reads the payload's scalars and structures.
"""

from __future__ import annotations

from tasks.longcot.catalog import check_domain
from tasks.longcot.data import Question
from tasks.longcot.verdict import DomainVerifier, Verdict, decide
from tasks.longcot.verify.chem import verify_chemistry
from tasks.longcot.verify.chess import verify_chess
from tasks.longcot.verify.cs import verify_cs
from tasks.longcot.verify.extract import solution_payload
from tasks.longcot.verify.logic import verify_logic
from tasks.longcot.verify.maths import verify_math

STRICT_VERIFIERS: dict[str, DomainVerifier] = {
    "chemistry": verify_chemistry,
    "chess": verify_chess,
    "cs": verify_cs,
    "logic": verify_logic,
    "math": verify_math,
}


def verify(question: Question, output: str) -> Verdict:
    """The verdict for ``output``; an output without ``solution =`` is ``unparsed``.

    Never raises on model output; a malformed question raises ValueError naming it.
    """
    check_domain(question)
    payload = solution_payload(output)
    if payload is None:
        return Verdict.unparsed("no 'solution = ...' in the output")
    return decide(STRICT_VERIFIERS, question, payload)
