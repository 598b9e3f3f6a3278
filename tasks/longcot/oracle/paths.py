"""Readiness of the coming pinned (forced) plies on the actual board, for ranking beam children.

The bound of :mod:`tasks.longcot.oracle.bound` measures distances on the empty board, so a
king whose only road to its pinned square runs through its own pawns looks ready when it is
not. :class:`PinReadiness` measures, for each side's pinned piece moves still to come, the
moves the piece needs around the pieces now on the board (own pieces cannot be passed or
landed on, sliders stop at any piece) and how far that exceeds the free moves its side has
left before the pinned ply. A pawn push also needs its path free: each piece on it costs a move,
a pawn (which cannot step aside) two.
"""

from __future__ import annotations

from typing import Any

from tasks.longcot.oracle.bound import BISHOP, KING, KNIGHT, PAWN, QUEEN, ROOK, Pinned

HORIZON = 6


def steps(kind: int, square: int, occupied: int) -> int:
    """Bitboard of the squares a piece of ``kind`` (0..5) on ``square`` attacks given ``occupied``."""
    import chess

    if kind == KNIGHT:
        return chess.BB_KNIGHT_ATTACKS[square]
    if kind == KING:
        return chess.BB_KING_ATTACKS[square]
    out = 0
    if kind in (ROOK, QUEEN):
        out |= chess.BB_RANK_ATTACKS[square][chess.BB_RANK_MASKS[square] & occupied]
        out |= chess.BB_FILE_ATTACKS[square][chess.BB_FILE_MASKS[square] & occupied]
    if kind in (BISHOP, QUEEN):
        out |= chess.BB_DIAG_ATTACKS[square][chess.BB_DIAG_MASKS[square] & occupied]
    return out


def board_distance(kind: int, sources: int, goals: int, own: int, occupied: int, limit: int) -> int:
    """Fewest moves for a piece of ``kind`` on any square of ``sources`` to stand on a square of
    ``goals`` without landing on ``own`` pieces (sliders blocked by ``occupied``); ``limit + 1``
    when more than ``limit``."""
    seen = frontier = sources
    for depth in range(limit + 1):
        if frontier & goals:
            return depth
        reached = 0
        bits = frontier
        while bits:
            low = bits & -bits
            reached |= steps(kind, low.bit_length() - 1, occupied)
            bits ^= low
        frontier = reached & ~own & ~seen
        if not frontier:
            return limit + 1
        seen |= frontier
    return limit + 1


class PinReadiness:
    """Shortfall, in moves, of the pieces that must play the pinned plies of one game."""

    def __init__(self, pinned: tuple[Pinned, ...], pinned_plies: set[int]) -> None:
        import chess

        self.pinned = [p for p in pinned if not _castles(p)]
        self.lines: dict[int, list[tuple[int, int]]] = {
            p.ply: [(1 << sq, chess.between(sq, p.to_square)) for sq in p.from_squares] for p in self.pinned
        }
        last = max([p.ply for p in pinned], default=0) + 2
        self.free_before = {colour: [0] * (last + 1) for colour in (True, False)}
        for colour, counts in self.free_before.items():
            for ply in range(last):
                free = ply % 2 == (0 if colour else 1) and ply not in pinned_plies
                counts[ply + 1] = counts[ply] + free
        self.cache: dict[tuple[Any, ...], int] = {}

    def free_moves(self, white: bool, start: int, stop: int) -> int:
        """Unpinned plies of one colour among plies ``start .. stop-1`` (``stop`` at most one past
        the last pinned ply)."""
        counts = self.free_before[white]
        return counts[stop] - counts[min(start, stop)]

    def shortfall(self, white: tuple[int, ...], black: tuple[int, ...], ply: int) -> int:
        """Summed moves by which the pinned pieces of both sides cannot reach a start square of
        their pinned plies (within ``HORIZON`` free moves) before those plies, from ply ``ply``."""
        own_bb = {True: 0, False: 0}
        kinds: dict[tuple[bool, int], int] = {}
        for colour, codes in ((True, white), (False, black)):
            for code in codes:
                own_bb[colour] |= 1 << (code & 63)
                kinds[colour, code >> 6] = kinds.get((colour, code >> 6), 0) | 1 << (code & 63)
        occupied = own_bb[True] | own_bb[False]
        pawns = kinds.get((True, PAWN), 0) | kinds.get((False, PAWN), 0)
        total = 0
        for pin in self.pinned:
            if pin.ply < ply:
                continue
            if pin.piece == PAWN:
                total += 0 if pin.capture else _path_cost(pin, occupied, pawns)
                continue
            free = self.free_moves(pin.white, ply, pin.ply)
            if free > HORIZON:
                continue
            key = (pin.ply, kinds.get((pin.white, pin.piece), 0), own_bb[pin.white], occupied, free)
            value = self.cache.get(key)
            if value is None:
                value = self._pin_shortfall(
                    pin, kinds.get((pin.white, pin.piece), 0), own_bb[pin.white], occupied, free, ply
                )
                self.cache[key] = value
            total += value
        return total

    def _pin_shortfall(self, pin: Pinned, sources: int, own: int, occupied: int, free: int, ply: int) -> int:
        starts = clear = 0
        for bit, line in self.lines[pin.ply]:
            starts |= bit
            if not line & occupied:
                clear |= bit
        best = board_distance(pin.piece, sources, starts, own, occupied, free + 1) + 1
        if clear:
            best = min(best, board_distance(pin.piece, sources, clear, own, occupied, free + 1))
        for earlier in self.pinned:
            if earlier.white == pin.white and ply <= earlier.ply < pin.ply and earlier.piece_after == pin.piece:
                gap = self.free_moves(pin.white, earlier.ply + 1, pin.ply)
                reach = board_distance(pin.piece, 1 << earlier.to_square, starts, own, occupied, gap + 1)
                best = min(best, free + 1 if reach > gap else 0)
        return max(0, best - free)


def _path_cost(pin: Pinned, occupied: int, pawns: int) -> int:
    import chess

    costs = []
    for square in pin.from_squares:
        path = chess.between(square, pin.to_square) | 1 << pin.to_square
        costs.append(bin(path & occupied).count("1") + bin(path & pawns).count("1"))
    return min(costs)


def _castles(pin: Pinned) -> bool:
    return pin.piece == KING and any(abs(pin.to_square - square) == 2 for square in pin.from_squares)
