"""Verification of one LongCoT answer: extract the ``solution =`` payload, dispatch on the domain."""

from __future__ import annotations

from collections.abc import Callable

from tasks.longcot.data import Question
from tasks.longcot.extract import solution_payload
from tasks.longcot.verdict import Verdict

KNOWN_TEMPLATES: dict[str, frozenset[str]] = {
    "chemistry": frozenset({"easy1", "easy2", "hard1", "hard2", "hard3", "hard4", "med1", "med2", "med3", "med4"}),
    "chess": frozenset(
        {
            "best_3_moves",
            "best_move",
            "forced_checkmate",
            "knight_game",
            "knight_path",
            "knight_path_enemy",
            "max_rooks",
            "piece_combinations",
            "reconstruct_moves",
            "uci_to_fen",
        }
    ),
    "cs": frozenset({"Backprop", "DistMem", "HM", "MCM", "MFMC", "Scheduling", "TM", "VLIW", "LLVM", "CodeTrace"}),
    "logic": frozenset(
        {
            "BlocksWorld",
            "Dungeon",
            "PackagingMinWaste",
            "RandomHanoi",
            "Sokoban",
            "Sudoku",
            "TrapezoidCounting",
            "WizardsTotalStrength",
        }
    ),
    "math": frozenset({"backtracking", "conditional", "dag", "dag_first", "linear"}),
}


def _verifier(domain: str) -> Callable[[Question, str], Verdict]:
    if domain == "chemistry":
        from tasks.longcot.verify_chem import verify_chemistry

        return verify_chemistry
    if domain == "chess":
        from tasks.longcot.verify_chess import verify_chess

        return verify_chess
    if domain == "cs":
        from tasks.longcot.verify_cs import verify_cs

        return verify_cs
    if domain == "logic":
        from tasks.longcot.verify_logic import verify_logic

        return verify_logic
    from tasks.longcot.verify_math import verify_math

    return verify_math


def check_template(question: Question) -> None:
    """Raise ValueError naming the question when its domain or template is not LongCoT's."""
    if question.domain not in KNOWN_TEMPLATES:
        raise ValueError(f"{question.uid}: unknown LongCoT domain {question.domain!r}")
    if question.template not in KNOWN_TEMPLATES[question.domain]:
        raise ValueError(f"{question.uid}: unknown {question.domain} template {question.template!r}")


def verify(question: Question, output: str) -> Verdict:
    """The verdict for ``output``; an output without ``solution =`` is ``unparsed``.

    Never raises on model output; a malformed question raises ValueError naming it.
    """
    if question.domain not in KNOWN_TEMPLATES:
        raise ValueError(f"{question.uid}: unknown LongCoT domain {question.domain!r}")
    payload = solution_payload(output)
    if payload is None:
        return Verdict.unparsed("no 'solution = ...' in the output")
    try:
        return _verifier(question.domain)(question, payload)
    except (RecursionError, MemoryError):
        return Verdict.unparsed("answer too deeply nested or too large to read")
