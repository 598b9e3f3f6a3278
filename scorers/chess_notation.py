"""Chess notation with python-chess: FEN piece placement, SAN/UCI move parsing and replays.

Every function takes untrusted text and returns None (or False) instead of raising;
replays are capped at ``MAX_PLIES`` so that no input can make them run long.
"""

from __future__ import annotations

import re
from typing import Any

MAX_PLIES = 2000
FEN_PLACEMENT = re.compile(r"(?<![A-Za-z0-9/])((?:[pnbrqkPNBRQK1-8]{1,8}/){7}[pnbrqkPNBRQK1-8]{1,8})(?![A-Za-z0-9/])")
FEN_FULL = re.compile(FEN_PLACEMENT.pattern + r"(?:\s+[wb]\s+(?:-|[KQkq]{1,4})\s+(?:-|[a-h][36])\s+\d+\s+\d+)?")
SUFFIX = re.compile(r"[+#!?]+$")
MOVE_NUMBER = re.compile(r"^\d+\.+$")


def piece_placement(fen: str) -> str | None:
    """The validated piece-placement field of a FEN (or of a bare placement); None if invalid."""
    import chess

    match = FEN_PLACEMENT.search(fen.strip()[:200])
    if match is None:
        return None
    board = chess.Board(None)
    try:
        board.set_board_fen(match.group(1))
    except ValueError:
        return None
    return board.board_fen()


def find_fen(text: str) -> str | None:
    """The first full FEN (placement plus the optional five fields) in ``text``."""
    match = FEN_FULL.search(text)
    return match.group(0) if match else None


def board_from_fen(fen: str) -> Any | None:
    """A ``chess.Board`` for a full FEN; None when python-chess rejects it."""
    import chess

    try:
        return chess.Board(fen)
    except ValueError:
        return None


def strip_suffix(san: str) -> str:
    """A SAN token without check, mate and annotation marks (``Qxf7#!`` -> ``Qxf7``)."""
    return SUFFIX.sub("", san.strip())


def move_tokens(text: str) -> list[str]:
    """Move tokens of a free list such as ``1. e4 e5 2. Nf3`` or ``[e4, e5]``: numbers and brackets dropped."""
    tokens = re.split(r"[\s,\[\]\"']+", text)
    return [t for t in tokens if t and not MOVE_NUMBER.match(t) and t not in ("...", "..")]


def replay(board: Any, tokens: list[str]) -> list[Any] | None:
    """Play SAN (or UCI) ``tokens`` on a copy of ``board``; the moves, or None if one is illegal."""
    import chess

    if len(tokens) > MAX_PLIES:
        return None
    board = board.copy(stack=False)
    moves = []
    for token in tokens:
        try:
            move = board.parse_san(token)
        except ValueError:
            try:
                move = chess.Move.from_uci(token.lower())
            except ValueError:
                return None
            if move not in board.legal_moves:
                return None
        board.push(move)
        moves.append(move)
    return moves
