"""Logic templates decided as LongCoT's verifier decides them (``src/_verify/logic/*``): move lists
replayed (BlocksWorld, RandomHanoi), Sokoban moves replayed, Sudoku grids validated, integers
compared with ``problem.solution`` (modulo ``instance.mod`` for PackagingMinWaste and
WizardsTotalStrength); without a ``solution =`` label, the last value of the right shape.

Deviation from upstream (an upstream bug, README "LongCoT official verifier"): a Sokoban move
string in quotes, backticks, bold or brackets is read; upstream stops at the wrapper and reads none.
"""

from __future__ import annotations

import re
from typing import Any

from tasks.longcot.data import Question
from tasks.longcot.official.parsing import INT, MOVE_LIST, extract_solution, int_solution, last_match, list_solution
from tasks.longcot.verdict import Verdict
from tasks.longcot.verify.logic import (
    MAX_MOVES,
    ProblemError,
    decide_integer,
    decide_sokoban,
    decide_stacks,
    field,
    logic_instance,
)

SOKOBAN_MOVES = re.compile(r"(?<![A-Za-z])[UDLR]+(?![A-Za-z])", re.IGNORECASE)
SOKOBAN_WRAPPERS = "\"'`*[({$ "
MOD_TEMPLATES = frozenset({"PackagingMinWaste", "WizardsTotalStrength"})


def move_triples(response: str) -> list[tuple[int, int, int]] | None:
    """``[[block, from, to], ...]`` from the payload, else the last move-list match
    (``_blocksworld._parse_moves``); booleans count as ints, as in upstream."""
    moves = list_solution(response, MOVE_LIST)
    if not moves or len(moves) > MAX_MOVES:
        return None
    out = []
    for move in moves:
        if not isinstance(move, list) or len(move) != 3 or not all(isinstance(x, int) for x in move):
            return None
        out.append((int(move[0]), int(move[1]), int(move[2])))
    return out


def sokoban_moves(response: str) -> str | None:
    """U/D/L/R read from the payload's start (whitespace skipped) until another character, else the
    last U/D/L/R run anywhere (``_sokoban._parse_moves``); wrappers at the start are skipped (deviation)."""
    payload = extract_solution(response)
    if payload:
        moves = []
        for ch in payload.lstrip(SOKOBAN_WRAPPERS).upper():
            if ch in "UDLR":
                moves.append(ch)
            elif not ch.isspace():
                break
        return "".join(moves) if moves else None
    found = last_match(response, SOKOBAN_MOVES)
    return found.upper() if found else None


def sudoku_grid(response: str, side: int) -> list[list[int]] | None:
    """A ``side`` x ``side`` integer grid from the payload, else the last grid-shaped match
    (``_sudoku._parse_grid``)."""
    row = rf"\[\s*-?\d+\s*(?:,\s*-?\d+\s*){{{side - 1}}}\]"
    grid_pattern = re.compile(rf"\[\s*{row}\s*(?:,\s*{row}\s*){{{side - 1}}}\]")
    grid = list_solution(response, grid_pattern)
    if not isinstance(grid, list) or len(grid) != side:
        return None
    if not all(isinstance(r, list) and len(r) == side and all(isinstance(v, int) for v in r) for r in grid):
        return None
    return grid


def sudoku_valid(grid: list[list[int]], puzzle: list[list[Any]], block: int) -> bool:
    """Givens kept and every row, column and block a permutation of 1..side (``_sudoku._is_valid_sudoku``)."""
    side = len(puzzle)
    if block <= 0 or block * block != side:
        return False
    if any(puzzle[r][c] not in (0, None) and puzzle[r][c] != grid[r][c] for r in range(side) for c in range(side)):
        return False
    want = list(range(1, side + 1))
    units = [list(r) for r in grid] + [[grid[r][c] for r in range(side)] for c in range(side)]
    units += [
        [grid[r][c] for r in range(br, br + block) for c in range(bc, bc + block)]
        for br in range(0, side, block)
        for bc in range(0, side, block)
    ]
    return all(sorted(unit) == want for unit in units)


def _verify_sudoku(question: Question, response: str, instance: dict[str, Any]) -> Verdict:
    puzzle = instance.get("puzzle_grid")
    config = field(question.problem, "config")
    if not (isinstance(puzzle, list) and puzzle and isinstance(config, dict) and isinstance(config.get("n"), int)):
        raise ProblemError("Sudoku needs instance.puzzle_grid and config.n")
    grid = sudoku_grid(response, len(puzzle))
    if grid is None:
        return Verdict.unparsed(f"no {len(puzzle)}x{len(puzzle)} integer grid in the answer")
    return Verdict.check(sudoku_valid(grid, puzzle, config["n"]), grid, "grid validated")


def verify_logic_official(question: Question, response: str) -> Verdict:
    """Dispatch on the template as ``_verifier.verify`` does."""
    problem, template = question.problem, question.template
    instance = logic_instance(problem)
    if template in ("BlocksWorld", "RandomHanoi"):
        unread = Verdict.unparsed("no list of [block, from, to] moves in the answer")
        return decide_stacks(instance, move_triples(response), template == "RandomHanoi", unread)
    if template == "Sokoban":
        moves_text = sokoban_moves(response)
        if moves_text is not None and len(moves_text) > MAX_MOVES:
            moves_text = None
        return decide_sokoban(instance, moves_text, Verdict.unparsed("no U/D/L/R moves in the answer"))
    if template == "Sudoku":
        return _verify_sudoku(question, response, instance)
    expected = field(problem, "solution")
    if isinstance(expected, str) and re.fullmatch(r"-?\d{1,4000}", expected.strip()):
        expected = int(expected.strip())
    if not isinstance(expected, int) or isinstance(expected, bool):
        raise ProblemError(f"{template}: problem.solution is not an integer")
    value = int_solution(response, INT)
    if value is None:
        return Verdict.unparsed("no integer in the answer")
    mod = instance.get("mod") if template in MOD_TEMPLATES else None
    if template in MOD_TEMPLATES and not (isinstance(mod, int) and mod > 0):
        raise ProblemError(f"{template}: instance.mod must be a positive integer")
    return decide_integer(value, expected, mod or None)
