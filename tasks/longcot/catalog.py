"""What LongCoT consists of: its domains, splits and problem templates, and the check that a question is one.

The data loaders, both verifiers and the task registry read these names from here, so none of them
imports another to learn them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tasks.longcot.data.question import Question

DOMAINS = ("chemistry", "chess", "cs", "logic", "math")
SPLITS = ("easy", "medium", "hard")
HUB_ID = "LongHorizonReasoning/longcot"

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


def check_domain(question: Question) -> None:
    """Raise ValueError naming the question when its domain is not LongCoT's."""
    if question.domain not in KNOWN_TEMPLATES:
        raise ValueError(f"{question.uid}: unknown LongCoT domain {question.domain!r}")


def check_template(question: Question) -> None:
    """Raise ValueError naming the question when its domain or template is not LongCoT's."""
    check_domain(question)
    if question.template not in KNOWN_TEMPLATES[question.domain]:
        raise ValueError(f"{question.uid}: unknown {question.domain} template {question.template!r}")


def domain_of_template(template: object) -> str | None:
    """The domain whose templates include ``template``, or None."""
    for domain, templates in KNOWN_TEMPLATES.items():
        if template in templates:
            return domain
    return None
