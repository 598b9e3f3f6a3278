"""Proof games for the LongCoT chess template ``reconstruct_moves``: a legal game from the initial
position that plays the forced moves at their move numbers and ends on the given position.

:func:`reconstruct` validates the untrusted input, runs the seeded beam search of
:mod:`tasks.longcot.oracle.search` within a budget of node expansions and replays every candidate
with python-chess before returning it; :func:`reconstruct_game` is its game alone. The budget,
not the clock, bounds the work: the same seed and budget give the same game on any machine under
any load. A wall-clock limit remains as an outer safety bound, and the result says when it,
rather than the budget, ended the search. The game has exactly the ply count the FEN implies
(full-move number and side to move) and, when the search finds one, the FEN's castling rights
and en-passant square as well.
"""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Any

from tasks.longcot.oracle.bound import INF, KING, PAWN, Pinned, reach
from tasks.longcot.oracle.search import (
    DEFAULT_NODE_BUDGET,
    DEFAULT_SAFETY_S,
    BeamSearch,
    Budget,
    Goal,
    Stop,
    piece_codes,
    search,
)

SAN = re.compile(r"^([NBRQK])?([a-h])?([1-8])?x?([a-h][1-8])(?:=?([NBRQnbrq]))?[+#]?$")
CASTLE = re.compile(r"^[O0]-[O0](-[O0])?[+#]?$")
MAX_FORCED = 64


def target_plies(board: Any) -> int:
    """Plies from the initial position implied by the FEN's full-move number and side to move."""
    return (board.fullmove_number - 1) * 2 + (0 if board.turn else 1)


def forced_plies(forced_moves: Any, total: int) -> dict[int, str] | None:
    """``{"12": "Kf1 f6"}`` as ``{ply: san}`` (ply 22 is White's 12th move); None if malformed."""
    from scorers import chess_notation as cn

    if not isinstance(forced_moves, dict) or len(forced_moves) > MAX_FORCED:
        return None
    plies: dict[int, str] = {}
    for key, value in forced_moves.items():
        try:
            number = int(str(key).strip())
        except ValueError:
            return None
        tokens = cn.move_tokens(str(value)) if isinstance(value, str) else []
        if number < 1 or not 1 <= len(tokens) <= 2 or str(value).strip().startswith("..."):
            return None
        for offset, token in enumerate(tokens):
            ply = 2 * (number - 1) + offset
            if ply >= total or not (SAN.match(token) or CASTLE.match(token)):
                return None
            plies[ply] = token
    return plies


def pinned_info(ply: int, san: str) -> Pinned | None:
    """What the bound needs to know about one forced ply; None when the SAN cannot be read."""
    white = ply % 2 == 0
    home = 4 if white else 60
    castle = CASTLE.match(san)
    if castle:
        to = home - 2 if castle.group(1) else home + 2
        return Pinned(ply, white, KING, frozenset({home}), to, False, KING)
    match = SAN.match(san)
    if match is None:
        return None
    letter, file_hint, rank_hint, square, promo = match.groups()
    to = (int(square[1]) - 1) * 8 + "abcdefgh".index(square[0])
    capture = "x" in san
    kind = "PNBRQK".index(letter) if letter else PAWN
    after = "PNBRQK".index(promo.upper()) if promo else kind
    if kind == PAWN:
        step = 8 if white else -8
        froms = {to - step + (("abcdefgh".index(file_hint) - (to & 7)) if file_hint and capture else 0)}
        start_rank = 3 if white else 4
        if not capture and to >> 3 == start_rank:
            froms.add(to - 2 * step)
    else:
        froms = {s for s in range(64) if reach(white, kind, s, to) == 1}
    if file_hint:
        froms = {s for s in froms if s & 7 == "abcdefgh".index(file_hint)}
    if rank_hint:
        froms = {s for s in froms if s >> 3 == int(rank_hint) - 1}
    froms = {s for s in froms if 0 <= s < 64}
    return Pinned(ply, white, kind, frozenset(froms), to, capture, after) if froms else None


def replay_check(plies: list[str], forced: dict[int, str], final: Any, strict: bool) -> bool:
    """Replay SAN ``plies`` with python-chess: legal, forced plies as given, final placement equal;
    ``strict`` also asks for the same ply count, side to move, castling rights and en-passant square."""
    import chess

    board = chess.Board()
    for index, san in enumerate(plies):
        if index in forced and san != forced[index]:
            return False
        try:
            board.push_san(san)
        except ValueError:
            return False
    if board.board_fen() != final.board_fen():
        return False
    if not strict:
        return True
    return (
        len(plies) == target_plies(final)
        and board.turn == final.turn
        and board.clean_castling_rights() == final.clean_castling_rights()
        and board.fen().split()[3] == final.fen().split()[3]
    )


def _as_dict(plies: list[str]) -> dict[str, str]:
    return {str(i // 2 + 1): " ".join(plies[i : i + 2]) for i in range(0, len(plies), 2)}


def _goal(final: Any, forced: dict[int, str], total: int) -> Goal | None:
    import chess

    infos = []
    for ply, san in sorted(forced.items()):
        info = pinned_info(ply, san)
        if info is None:
            return None
        infos.append(info)
    needed = []
    for ply, san in forced.items():
        castle = CASTLE.match(san)
        if castle:
            rank = 0 if ply % 2 == 0 else 56
            needed.append((ply, chess.BB_SQUARES[rank if castle.group(1) else rank + 7]))
    return Goal(
        piece_codes(final, True),
        piece_codes(final, False),
        final.clean_castling_rights(),
        total,
        dict(forced),
        tuple(infos),
        tuple(needed),
    )


@dataclass(frozen=True)
class Reconstruction:
    """What :func:`reconstruct` found: the game, or None and, when a limit ended the search,
    which one (``Stop.NODES``: the node budget, deterministic; ``Stop.TIME``: the wall-clock
    safety bound, which depends on the machine). ``stopped`` is None for a game found and for
    input that is malformed or impossible; ``nodes`` counts the expansions spent."""

    game: dict[str, str] | None
    stopped: Stop | None
    nodes: int


def reconstruct(
    final_fen: str,
    forced_moves: dict[str, str],
    time_limit_s: float = DEFAULT_SAFETY_S,
    seed: int = 0,
    node_budget: int = DEFAULT_NODE_BUDGET,
) -> Reconstruction:
    """A move dict ``{"1": "e4 e5", ...}`` from the initial position that plays ``forced_moves`` at
    their move numbers and reaches ``final_fen``, searched within ``node_budget`` node expansions
    (see :class:`~tasks.longcot.oracle.search.Budget`; the default solves typical 49-ply questions)
    and, as a safety bound, ``time_limit_s`` seconds. The same seed and budget give the same answer
    whatever the machine's speed or load, unless ``stopped`` is ``Stop.TIME``."""
    budget = Budget(node_budget, time.monotonic() + max(0.0, float(time_limit_s)))
    return Reconstruction(_solve(final_fen, forced_moves, seed, budget), budget.stopped, budget.spent)


def reconstruct_game(
    final_fen: str,
    forced_moves: dict[str, str],
    time_limit_s: float = DEFAULT_SAFETY_S,
    seed: int = 0,
    node_budget: int = DEFAULT_NODE_BUDGET,
) -> dict[str, str] | None:
    """The game of :func:`reconstruct`; None when the input is malformed or impossible or a limit
    (the node budget, or the time limit) ended the search (:func:`reconstruct` says which)."""
    return reconstruct(final_fen, forced_moves, time_limit_s, seed, node_budget).game


def _solve(final_fen: str, forced_moves: dict[str, str], seed: int, budget: Budget) -> dict[str, str] | None:
    import chess

    try:
        final = chess.Board(str(final_fen))
    except ValueError:
        return None
    total = target_plies(final)
    forced = forced_plies(forced_moves, total)
    if forced is None or total < 1 or not final.is_valid():
        return None
    goal = _goal(final, forced, total)
    if goal is None:
        return None
    if any(bound >= INF for bound in _initial_bounds(goal)):
        return None
    best: dict[str, str] | None = None
    for moves in search(goal, budget, seed):
        board = chess.Board()
        plies = []
        for index, move in enumerate(moves):
            plies.append(forced.get(index) or board.san(move))
            board.push(move)
        if replay_check(plies, forced, final, strict=True):
            return _as_dict(plies)
        if best is None and replay_check(plies, forced, final, strict=False):
            best = _as_dict(plies)
    return best


def _initial_bounds(goal: Goal) -> tuple[int, int]:
    import chess

    board = chess.Board()
    white, black = piece_codes(board, True), piece_codes(board, False)
    beam = BeamSearch(goal, 1, 0, 0.0, Budget(0, 0.0))
    return (
        beam.bounds[0].bound(white, len(black), 0, board.castling_rights),
        beam.bounds[1].bound(black, len(white), 0, board.castling_rights),
    )
