"""Verifiers of the logic templates: replayed move lists (BlocksWorld, RandomHanoi, Sokoban),
validated Sudoku grids and integers compared with ``problem.solution`` (modulo ``mod`` where given)."""

from __future__ import annotations

import re
from typing import Any

from scorers.literal import LiteralError, parse_literal
from tasks.longcot.data import Question
from tasks.longcot.verdict import Verdict
from tasks.longcot.verify.extract import first_line, parse_int, parse_structure

MAX_MOVES = 200_000
MOD_TEMPLATES = frozenset({"PackagingMinWaste", "WizardsTotalStrength"})


class ProblemError(ValueError):
    """The question's own problem fields are malformed."""


def field(problem: dict[str, Any], name: str) -> Any:
    """A problem field, decoded when stored as a JSON or Python-literal string."""
    value = problem.get(name)
    if isinstance(value, str) and value.strip()[:1] in ("{", "["):
        try:
            return parse_literal(value)
        except LiteralError as exc:
            raise ProblemError(f"problem.{name}: {exc}") from None
    return value


def stacks(value: Any, name: str) -> list[list[int]]:
    """A list of integer stacks (bottom first), validated."""
    if not isinstance(value, list) or not all(
        isinstance(s, list) and all(isinstance(x, int) for x in s) for s in value
    ):
        raise ProblemError(f"instance.{name} must be a list of integer lists")
    return [list(s) for s in value]


def read_moves(payload: str) -> list[tuple[int, int, int]] | None:
    """A list of ``[block, from_stack, to_stack]`` integer triples; None if it is not one."""
    parsed = parse_structure(payload, "[")
    if not isinstance(parsed, list) or len(parsed) > MAX_MOVES:
        return None
    moves = []
    for move in parsed:
        if not isinstance(move, (list, tuple)) or len(move) != 3:
            return None
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in move):
            return None
        moves.append((move[0], move[1], move[2]))
    return moves


def replay_stacks(
    initial: list[list[int]], goal: list[list[int]], moves: list[tuple[int, int, int]], hanoi: bool
) -> tuple[bool, str]:
    """Play ``moves`` from ``initial``; (reached ``goal``, reason). Hanoi forbids larger on smaller."""
    state = [list(s) for s in initial]
    for i, (block, src, dst) in enumerate(moves):
        if not (0 <= src < len(state) and 0 <= dst < len(state)) or src == dst:
            return False, f"move {i}: bad stacks {src}->{dst}"
        if not state[src] or state[src][-1] != block:
            return False, f"move {i}: block {block} is not on top of stack {src}"
        if hanoi and state[dst] and state[dst][-1] < block:
            return False, f"move {i}: disc {block} placed on smaller disc {state[dst][-1]}"
        state[dst].append(state[src].pop())
    return (state == goal), (
        "goal reached" if state == goal else f"final state after {len(moves)} moves is not the goal"
    )


def read_sokoban(payload: str) -> str | None:
    """Sokoban moves: a string of U/D/L/R (spaces and commas ignored) or a list of such strings."""
    if payload.startswith("["):
        parsed = parse_structure(payload, "[")
        if isinstance(parsed, list) and all(isinstance(x, str) for x in parsed):
            joined = "".join(parsed).upper()
            return joined if joined and re.fullmatch(r"[UDLR]+", joined) and len(joined) <= MAX_MOVES else None
    moves = []
    for ch in first_line(payload).strip("'\"`"):
        if ch.upper() in "UDLR":
            moves.append(ch.upper())
        elif ch in " ,":
            continue
        else:
            break
    return "".join(moves) if moves and len(moves) <= MAX_MOVES else None


def replay_sokoban(instance: dict[str, Any], moves: str) -> bool:
    """Upstream semantics: a blocked step is a no-op; solved when every box is on a goal."""
    steps = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
    walls = {tuple(c) for c in instance["walls"]}
    goals = {tuple(c) for c in instance["goals"]}
    boxes = {tuple(c) for c in instance["boxes"]}
    pr, pc = instance["player"]
    for move in moves:
        dr, dc = steps[move]
        nr, nc = pr + dr, pc + dc
        if (nr, nc) in walls:
            continue
        if (nr, nc) in boxes:
            beyond = (nr + dr, nc + dc)
            if beyond in walls or beyond in boxes:
                continue
            boxes.remove((nr, nc))
            boxes.add(beyond)
        pr, pc = nr, nc
    return boxes == goals


def sudoku_ok(grid: list[list[int]], puzzle: list[list[int]], block: int) -> tuple[bool, str]:
    """Whether ``grid`` completes ``puzzle``: givens kept, rows, columns and blocks are permutations."""
    side = len(puzzle)
    want = set(range(1, side + 1))
    for r in range(side):
        for c in range(side):
            if puzzle[r][c] not in (0, None) and puzzle[r][c] != grid[r][c]:
                return False, f"given at ({r},{c}) changed"
    units = [row for row in grid] + [[grid[r][c] for r in range(side)] for c in range(side)]
    units += [
        [grid[r][c] for r in range(br, br + block) for c in range(bc, bc + block)]
        for br in range(0, side, block)
        for bc in range(0, side, block)
    ]
    bad = sum(1 for unit in units if set(unit) != want or len(unit) != side)
    return bad == 0, "valid grid" if bad == 0 else f"{bad} rows/columns/blocks are not permutations"


def logic_instance(problem: dict[str, Any]) -> dict[str, Any]:
    """``problem.instance`` decoded (an empty object when absent); ProblemError when it is not an object."""
    instance = field(problem, "instance") or {}
    if not isinstance(instance, dict):
        raise ProblemError("problem.instance must be an object")
    return instance


def decide_stacks(
    instance: dict[str, Any], moves: list[tuple[int, int, int]] | None, hanoi: bool, unread: Verdict
) -> Verdict:
    """The verdict on a BlocksWorld (or, with ``hanoi``, RandomHanoi) move list replayed on the instance;
    ``unread`` when no move list was read."""
    if moves is None:
        return unread
    ok, why = replay_stacks(
        stacks(instance.get("initial_state"), "initial_state"),
        stacks(instance.get("goal_state"), "goal_state"),
        moves,
        hanoi,
    )
    return Verdict.check(ok, f"{len(moves)} moves", why)


def decide_sokoban(instance: dict[str, Any], moves_text: str | None, unread: Verdict) -> Verdict:
    """The verdict on a Sokoban move string replayed on the instance (ProblemError when the instance is
    malformed); ``unread`` when no move string was read."""
    if moves_text is None:
        return unread
    try:
        ok = replay_sokoban(instance, moves_text)
    except (KeyError, TypeError, ValueError) as exc:
        raise ProblemError(f"Sokoban instance malformed: {exc}") from None
    return Verdict.check(ok, moves_text, "all boxes on goals" if ok else "boxes not all on goals")


def decide_integer(value: int, expected: int, mod: int | None) -> Verdict:
    """``value`` against ``expected``, modulo ``mod`` when one is given."""
    if mod:
        return Verdict.check(value % mod == expected % mod, value, f"compared modulo {mod}")
    return Verdict.check(value == expected, value, "integer")


def verify_logic(question: Question, payload: str) -> Verdict:
    """Replay or validate the model's solution against ``problem.instance``."""
    problem, template = question.problem, question.template
    instance = logic_instance(problem)
    if template in ("BlocksWorld", "RandomHanoi"):
        unread = Verdict.unparsed("no list of [block, from, to] moves after 'solution ='", payload[:200])
        return decide_stacks(instance, read_moves(payload), template == "RandomHanoi", unread)
    if template == "Sokoban":
        unread = Verdict.unparsed("no U/D/L/R move string after 'solution ='", payload[:200])
        return decide_sokoban(instance, read_sokoban(payload), unread)
    if template == "Sudoku":
        puzzle = instance.get("puzzle_grid")
        if not isinstance(puzzle, list) or not puzzle:
            raise ProblemError("Sudoku instance lacks puzzle_grid")
        side = len(puzzle)
        config = field(problem, "config") or {}
        block = int(config.get("n", round(side**0.5))) if isinstance(config, dict) else round(side**0.5)
        grid = parse_structure(payload, "[")
        if not (
            isinstance(grid, list)
            and len(grid) == side
            and all(
                isinstance(row, list)
                and len(row) == side
                and all(isinstance(v, int) and not isinstance(v, bool) for v in row)
                for row in grid
            )
        ):
            return Verdict.unparsed(f"no {side}x{side} integer grid after 'solution ='", payload[:200])
        ok, why = sudoku_ok(grid, puzzle, block)
        return Verdict.check(ok, grid, why)
    value = parse_int(payload)
    if value is None:
        return Verdict.unparsed("no integer after 'solution ='", payload[:200])
    expected = field(problem, "solution")
    if isinstance(expected, str):
        expected = parse_int(expected)
    if not isinstance(expected, int) or isinstance(expected, bool):
        raise ProblemError(f"{template}: problem.solution is not an integer")
    mod = instance.get("mod") if template in MOD_TEMPLATES else None
    return decide_integer(value, expected, mod if isinstance(mod, int) and mod > 0 else None)
