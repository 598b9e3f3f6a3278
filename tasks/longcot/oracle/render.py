"""Answers written the way a model would: the reference (``builtin/oracle``) and seeded guesses
(``builtin/random``), each ending with ``solution = ...``."""

from __future__ import annotations

import json
import os
import random
from functools import lru_cache
from typing import Any

from tasks.longcot.data import Question
from tasks.longcot.oracle import solvers
from tasks.longcot.oracle.search import DEFAULT_NODE_BUDGET, DEFAULT_SAFETY_S
from tasks.longcot.verify.logic import field

FILES = "abcdefgh"
RECONSTRUCT_NODES_VAR = "FRONTIER_LONGCOT_RECONSTRUCT_NODES"
RECONSTRUCT_BUDGET_VAR = "FRONTIER_LONGCOT_RECONSTRUCT_S"
RECONSTRUCT_BUDGET_S = DEFAULT_SAFETY_S


def reconstruct_nodes() -> int:
    """Node expansions the proof-game solver may spend on one ``reconstruct_moves`` question, the
    number that decides whether it finds a game: ``$FRONTIER_LONGCOT_RECONSTRUCT_NODES`` if it is an
    integer >= 0, else ``DEFAULT_NODE_BUDGET`` (:mod:`tasks.longcot.oracle.search`)."""
    try:
        value = int(os.environ.get(RECONSTRUCT_NODES_VAR, DEFAULT_NODE_BUDGET))
    except ValueError:
        return DEFAULT_NODE_BUDGET
    return value if value >= 0 else DEFAULT_NODE_BUDGET


def reconstruct_budget_s() -> float:
    """Seconds the proof-game solver may spend on one ``reconstruct_moves`` question, a safety
    bound well above what :func:`reconstruct_nodes` takes (when it ends a search, the outcome
    depends on the machine): ``$FRONTIER_LONGCOT_RECONSTRUCT_S`` if it is a number >= 0, else 1800."""
    try:
        value = float(os.environ.get(RECONSTRUCT_BUDGET_VAR, RECONSTRUCT_BUDGET_S))
    except ValueError:
        return RECONSTRUCT_BUDGET_S
    return value if value >= 0 else RECONSTRUCT_BUDGET_S


@lru_cache(maxsize=256)
def _solved_game(final_fen: str, forced_json: str, nodes: int, budget_s: float) -> str | None:
    from tasks.longcot.oracle.proof_game import reconstruct_game

    game = reconstruct_game(final_fen, json.loads(forced_json), time_limit_s=budget_s, node_budget=nodes)
    return json.dumps(game) if game is not None else None


def reconstruct_payload(question: Question) -> str | None:
    """A proof game for a ``reconstruct_moves`` question (which stores no game), or None."""
    problem = question.problem
    forced = problem.get("forced_moves")
    if isinstance(forced, str):
        try:
            forced = json.loads(forced)
        except ValueError:
            return None
    if not isinstance(forced, dict):
        return None
    forced_json = json.dumps({str(k): str(v) for k, v in forced.items()}, sort_keys=True)
    return _solved_game(str(problem.get("final_fen", "")), forced_json, reconstruct_nodes(), reconstruct_budget_s())


def reference_payload(question: Question) -> str | None:
    """The gold answer as a ``solution =`` payload; None when the data holds none and no solver applies."""
    template, answer, problem = question.template, question.answer, question.problem
    if question.domain == "logic":
        instance = field(problem, "instance") or {}
        if template == "BlocksWorld":
            moves = solvers.blocksworld(instance["initial_state"], instance["goal_state"])
            return json.dumps(moves) if moves is not None else None
        if template == "RandomHanoi":
            moves = solvers.hanoi(instance["initial_state"], instance["goal_state"])
            return json.dumps(moves) if moves is not None else None
        if template == "Sudoku":
            config = field(problem, "config") or {}
            grid = solvers.sudoku(instance["puzzle_grid"], int(config.get("n", 3)))
            return json.dumps(grid) if grid is not None else None
        if template == "Sokoban":
            return solvers.sokoban(instance)
        solution = field(problem, "solution")
        return str(solution) if solution is not None else None
    if answer is None or answer == "":
        if question.domain == "chess" and template == "reconstruct_moves":
            return reconstruct_payload(question)
        return None
    if question.domain == "math" and isinstance(answer, list):
        return "[" + ", ".join(str(a) for a in answer) + "]"
    if isinstance(answer, (dict, list)):
        return json.dumps(answer, ensure_ascii=False)
    return str(answer)


def reference_text(question: Question, payload: str | None) -> str:
    """A complete model-like output for ``payload`` (a short rationale, then the answer line)."""
    if payload is None:
        return "I could not determine a reference solution for this question."
    return f"Working through the subproblems in order gives the final answer.\n\nsolution = {payload}"


def random_payload(question: Question, rng: random.Random) -> str:
    """A guess of the right shape for the template (so that it is scored, and almost always wrong)."""
    answer: Any = question.answer
    if question.domain == "logic":
        if question.template in ("BlocksWorld", "RandomHanoi"):
            return json.dumps([[rng.randint(0, 9), rng.randint(0, 2), rng.randint(0, 2)] for _ in range(5)])
        if question.template == "Sokoban":
            return "".join(rng.choice("UDLR") for _ in range(20))
        if question.template == "Sudoku":
            return json.dumps([[rng.randint(1, 9) for _ in range(9)] for _ in range(9)])
        return str(rng.randint(0, 10_000))
    if question.domain == "math" and isinstance(answer, list):
        return "[" + ", ".join(str(rng.randint(0, 100)) for _ in answer) + "]"
    if question.domain == "chemistry" and isinstance(answer, str):
        return rng.choice(["CCO", "c1ccccc1", "CC(=O)O", "CCN", "O=C=O"])
    if question.template == "uci_to_fen":
        return "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
    if question.template in ("best_move", "best_3_moves"):
        count = len(answer) if isinstance(answer, list) else 1
        moves = [f"{rng.choice('NBRQK')}{rng.choice(FILES)}{rng.randint(1, 8)}" for _ in range(count)]
        return moves[0] if count == 1 else json.dumps(moves)
    if question.template in ("forced_checkmate", "reconstruct_moves"):
        return json.dumps({"1": "e4 e5", "2": "Nf3 Nc6"})
    if isinstance(answer, dict):
        return json.dumps({k: rng.randint(0, 100) for k in answer})
    if isinstance(answer, list):
        return json.dumps([rng.randint(0, 100) for _ in answer])
    return str(rng.randint(0, 1000))
