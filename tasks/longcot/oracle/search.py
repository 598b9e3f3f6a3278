"""Beam search for a proof game: from the initial position, ``total_plies`` legal plies that play
the pinned (forced) plies at their indices and end on the target piece placement.

Children are scored without being played: the piece codes of each side after a move are
derived from the move, and :class:`~tasks.longcot.oracle.bound.SideBound` gives each
side's lower bound on the moves it still needs; children whose bound exceeds the moves left
are pruned, the rest ranked by the sum of both bounds, the pinned plies not yet playable, the
moves by which pinned pieces fall short of their start squares on the actual board
(:mod:`tasks.longcot.oracle.paths`, weighted), the captures still to make (so that they
are not all left to the last plies), plus seeded noise. A beam that fails in the last plies is
finished by a bounded depth-first search over every admissible move.

The work is bounded by a :class:`Budget` of node expansions (one expansion: the children of one
state generated and scored, in the beam or in the finish), so that the same seed and budget give
the same game on any machine under any load. A wall-clock deadline is kept only as an outer
safety bound; the budget records which of the two ended a search.
"""

from __future__ import annotations

import enum
import random
import time
from dataclasses import dataclass
from typing import Any

from tasks.longcot.oracle.bound import INF, KING, ROOK, Pinned, SideBound
from tasks.longcot.oracle.paths import PinReadiness

SHORTFALL_WEIGHT = 3.0
CAPTURE_WEIGHT = 1.0
FIRST_WIDTH, MAX_WIDTH = 48, 768
FINISH_PLIES, FINISH_NODES = 6, 20
# The first four whole runs (widths 48 to 384, each with its finish: at most 49,680 expansions on
# 49 plies). The three real questions of the tests take 2,135 to 2,195 (the first run), the
# hardest seeded game of the tests 22,997 (the fourth); one expansion costs about 5 ms on the
# project's loaded 2-core machine, so the budget is about four minutes there.
DEFAULT_NODE_BUDGET = 50_000
# The wall-clock safety bound: only for a machine far slower or busier than that one.
DEFAULT_SAFETY_S = 1800.0


Child = tuple[float, Any, tuple[int, ...], tuple[int, ...], int]


class Stop(enum.Enum):
    """What ended a search before it found a game: its node budget (deterministic) or the
    wall-clock safety deadline (depends on the machine and its load)."""

    NODES = "node budget"
    TIME = "time limit"


class Budget:
    """Node expansions a search may make, and a wall-clock deadline as an outer safety bound.

    :meth:`expand` counts one expansion; once ``nodes`` have been counted, or the deadline has
    passed, it refuses and :attr:`stopped` says which (the node budget when both apply)."""

    def __init__(self, nodes: int, deadline: float) -> None:
        self.nodes = nodes
        self.deadline = deadline
        self.spent = 0
        self.stopped: Stop | None = None

    def expand(self) -> bool:
        """Count one node expansion; False, once and for good, when the budget or the time is spent."""
        if self.stopped is None:
            if self.spent >= self.nodes:
                self.stopped = Stop.NODES
            elif time.monotonic() > self.deadline:
                self.stopped = Stop.TIME
        if self.stopped is not None:
            return False
        self.spent += 1
        return True


@dataclass(frozen=True)
class Goal:
    """What the game must reach: piece codes per side, castling rights, ply count, pinned plies."""

    white: tuple[int, ...]
    black: tuple[int, ...]
    rights: int
    total_plies: int
    pinned: dict[int, str]
    pinned_info: tuple[Pinned, ...]
    castle_rights_needed: tuple[tuple[int, int], ...]


@dataclass
class State:
    """A beam node: the board after ``moves`` and both sides' piece codes."""

    board: Any
    moves: tuple[Any, ...]
    white: tuple[int, ...]
    black: tuple[int, ...]


def piece_codes(board: Any, white: bool) -> tuple[int, ...]:
    """Sorted ``type * 64 + square`` codes of one side's pieces."""
    return tuple(sorted((p.piece_type - 1) * 64 + sq for sq, p in board.piece_map().items() if p.color == white))


def _child_codes(
    board: Any, move: Any, own: tuple[int, ...], opp: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    kind = board.piece_type_at(move.from_square) - 1
    mine = list(own)
    mine.remove(kind * 64 + move.from_square)
    after = move.promotion - 1 if move.promotion else kind
    if board.is_castling(move):
        rank = move.to_square & 56
        kingside = (move.to_square & 7) > (move.from_square & 7)
        rook_from, rook_to = (rank + 7, rank + 5) if kingside else (rank, rank + 3)
        mine.remove(ROOK * 64 + rook_from)
        mine.append(ROOK * 64 + rook_to)
        mine.append(KING * 64 + (rank + (6 if kingside else 2)))
        return tuple(sorted(mine)), opp
    mine.append(after * 64 + move.to_square)
    captured_sq = None
    if board.is_en_passant(move):
        captured_sq = move.to_square + (-8 if board.turn else 8)
    elif board.piece_at(move.to_square) is not None:
        captured_sq = move.to_square
    theirs = opp
    if captured_sq is not None:
        theirs = tuple(c for c in opp if c & 63 != captured_sq)
    return tuple(sorted(mine)), theirs


def _child_rights(board: Any, move: Any) -> int:
    import chess

    rights = board.castling_rights & ~chess.BB_SQUARES[move.from_square] & ~chess.BB_SQUARES[move.to_square]
    if board.piece_type_at(move.from_square) == chess.KING:
        rights &= ~(chess.BB_RANK_1 if board.turn else chess.BB_RANK_8)
    return rights


def pinned_move(board: Any, san: str) -> Any | None:
    """The legal move that the pinned SAN names in ``board`` (captures only when it says ``x``)."""
    try:
        move = board.parse_san(san)
    except ValueError:
        return None
    if board.is_capture(move) != ("x" in san):
        return None
    return move


class BeamSearch:
    """One seeded beam search of a fixed width toward ``goal``, its expansions counted in ``budget``."""

    def __init__(self, goal: Goal, width: int, seed: int, noise: float, budget: Budget) -> None:
        opp_counts = (len(goal.black), len(goal.white))
        lost = [[sq for sq in sqs if not goal.rights >> sq & 1] for sqs in ((0, 7), (56, 63))]
        self.goal = goal
        self.bounds = (
            SideBound(True, list(goal.white), opp_counts[0], goal.total_plies, list(goal.pinned_info), lost[0]),
            SideBound(False, list(goal.black), opp_counts[1], goal.total_plies, list(goal.pinned_info), lost[1]),
        )
        self.width = width
        self.rng = random.Random(seed)
        self.noise = noise
        self.budget = budget
        self.died_at: int | None = None
        self.readiness = PinReadiness(goal.pinned_info, set(goal.pinned))

    def required_rights(self, ply: int) -> int:
        """Castling rights that must still be held after ply ``ply - 1``."""
        needed = self.goal.rights
        for at, mask in self.goal.castle_rights_needed:
            if at >= ply:
                needed |= mask
        return needed

    def contact(self, white: bool, side: tuple[int, ...], other: tuple[int, ...]) -> int:
        """Moves beyond the capture itself for one side to reach the enemy pieces it still has to
        take (the nearest ones of the kinds the enemy has more of than the target)."""
        import numpy as np

        other_target = self.goal.black if white else self.goal.white
        needed = len(other) - len(other_target)
        if needed <= 0:
            return 0
        surplus = [0] * 6
        for code in other:
            surplus[code >> 6] += 1
        for code in other_target:
            surplus[code >> 6] -= 1
        victims = [c & 63 for c in other if c >> 6 != KING and surplus[c >> 6] > 0]
        if not victims:
            return 0
        types = np.array([c >> 6 for c in side])
        squares = np.array([c & 63 for c in side])
        tensor = self.bounds[0 if white else 1].tensor
        reach = tensor[types[:, None], types[:, None], squares[:, None], np.array(victims)[None, :]].min(axis=0)
        reach.sort()
        return int(np.maximum(reach[:needed] - 1, 0).sum())

    def unready(self, white: tuple[int, ...], black: tuple[int, ...], ply: int) -> int:
        """How many of the two sides' next pinned plies could not be played on the next own move
        (no piece on a start square with a clear path, or the destination wrongly occupied)."""
        import chess

        occupied = {True: 0, False: 0}
        for colour, codes in ((True, white), (False, black)):
            for code in codes:
                occupied[colour] |= 1 << (code & 63)
        both = occupied[True] | occupied[False]
        late = 0
        for pin in self.next_pins(ply):
            if pin.piece == KING and any(abs(pin.to_square - sq) == 2 for sq in pin.from_squares):
                continue
            target_bit = 1 << pin.to_square
            if (both & target_bit) and not (pin.capture and occupied[not pin.white] & target_bit):
                late += 1
                continue
            codes = white if pin.white else black
            if not any(
                code >> 6 == pin.piece
                and (code & 63) in pin.from_squares
                and not chess.between(code & 63, pin.to_square) & both
                for code in codes
            ):
                late += 1
        return late

    def next_pins(self, ply: int) -> list[Pinned]:
        """Each side's next pinned plies at or after ``ply`` that follow one another with no free
        move of that side in between."""
        out = []
        for white in (True, False):
            pins = [p for p in self.goal.pinned_info if p.white == white and p.ply >= ply]
            for index, pin in enumerate(pins):
                if index and pin.ply != pins[index - 1].ply + 2:
                    break
                out.append(pin)
        return out

    def children(self, state: State, ply: int) -> list[Child]:
        """``(score, move, white codes, black codes, castling rights)`` of the children of ``state``
        (on ply ``ply``) that keep the rights the goal needs and both bounds within the moves left;
        lower scores look closer to the goal (no noise)."""
        board = state.board
        if ply in self.goal.pinned:
            move = pinned_move(board, self.goal.pinned[ply])
            moves = [move] if move is not None else []
        else:
            moves = list(board.legal_moves)
        required = self.required_rights(ply + 1)
        own, opp = (state.white, state.black) if board.turn else (state.black, state.white)
        target_count = len(self.goal.white) + len(self.goal.black)
        out = []
        for move in moves:
            rights = _child_rights(board, move)
            if rights & required != required:
                continue
            mine, theirs = _child_codes(board, move, own, opp)
            white, black = (mine, theirs) if board.turn else (theirs, mine)
            hw = self.bounds[0].bound(white, len(black), ply + 1, rights)
            if hw >= INF:
                continue
            hb = self.bounds[1].bound(black, len(white), ply + 1, rights)
            if hb >= INF:
                continue
            late = (
                self.unready(white, black, ply + 1)
                + self.contact(True, white, black)
                + self.contact(False, black, white)
                + SHORTFALL_WEIGHT * self.readiness.shortfall(white, black, ply + 1)
                + CAPTURE_WEIGHT * (len(white) + len(black) - target_count)
            )
            out.append((hw + hb + late, move, white, black, rights))
        return out

    def run(self) -> list[list[Any]]:
        """Move lists reaching the goal (empty when the beam dies out or the budget is spent). When the
        beam fails within the last ``FINISH_PLIES`` plies, a depth-first search over every
        admissible move finishes from the beam kept at that point."""
        import chess

        board = chess.Board()
        beam = [State(board, (), piece_codes(board, True), piece_codes(board, False))]
        total = self.goal.total_plies
        finish_from: tuple[int, list[State]] | None = None
        for ply in range(total):
            if ply == max(0, total - FINISH_PLIES):
                finish_from = (ply, beam)
            for bound in self.bounds:
                bound.cache.clear()
            self.readiness.cache.clear()
            scored: list[tuple[float, int, Any, tuple[int, ...], tuple[int, ...]]] = []
            seen: set[tuple[Any, ...]] = set()
            for index, state in enumerate(beam):
                if not self.budget.expand():
                    return []
                for score, move, white, black, rights in self.children(state, ply):
                    if (white, black, rights) not in seen:
                        seen.add((white, black, rights))
                        scored.append((score + self.noise * self.rng.random(), index, move, white, black))
            if not scored:
                self.died_at = ply
                return self.finish(*finish_from) if finish_from else []
            scored.sort(key=lambda item: item[0])
            next_beam = []
            for _, index, move, white, black in scored[: self.width]:
                board = beam[index].board.copy(stack=False)
                board.push(move)
                next_beam.append(State(board, (*beam[index].moves, move), white, black))
            beam = next_beam
        done = [list(s.moves) for s in beam if s.white == self.goal.white and s.black == self.goal.black]
        return done or (self.finish(*finish_from) if finish_from else [])

    def finish(self, ply: int, beam: list[State]) -> list[list[Any]]:
        """Depth-first search from each state of ``beam`` (on ply ``ply``) to the goal, best
        children first, within ``FINISH_NODES`` expansions per beam slot in all (each also counted
        in the search's budget)."""
        allowance = [FINISH_NODES * self.width]
        dead: set[tuple[Any, ...]] = set()
        for state in beam:
            found = self._finish(state, ply, allowance, dead)
            if found is not None:
                return [found]
        return []

    def _finish(self, state: State, ply: int, allowance: list[int], dead: set[tuple[Any, ...]]) -> list[Any] | None:
        if ply == self.goal.total_plies:
            return list(state.moves) if (state.white, state.black) == (self.goal.white, self.goal.black) else None
        key = (state.white, state.black, state.board.castling_rights, ply)
        if key in dead or allowance[0] <= 0 or not self.budget.expand():
            return None
        allowance[0] -= 1
        for _, move, white, black, _ in sorted(self.children(state, ply), key=lambda item: item[0]):
            board = state.board.copy(stack=False)
            board.push(move)
            found = self._finish(State(board, (*state.moves, move), white, black), ply + 1, allowance, dead)
            if found is not None:
                return found
        if allowance[0] > 0 and self.budget.stopped is None:
            dead.add(key)
        return None


def search(goal: Goal, budget: Budget, seed: int) -> list[list[Any]]:
    """Seeded beam searches until one reaches the goal or ``budget`` is spent (or the first ply
    already has no admissible move, which no width can change). The widths are 48, 96, 192, ...
    up to ``MAX_WIDTH``, then ``MAX_WIDTH`` again, each run seeded from ``seed``'s generator: a
    function of the node counts alone, so a larger budget only adds runs after the same ones."""
    rng = random.Random(seed)
    width = FIRST_WIDTH
    while budget.stopped is None:
        beam = BeamSearch(goal, width, rng.randrange(1 << 30), noise=1.5, budget=budget)
        found = beam.run()
        if found or beam.died_at == 0:
            return found
        width = min(2 * width, MAX_WIDTH)
    return []
