"""Lower bounds for proof-game search: how many moves each side still needs to turn its current
pieces into the target ones, passing through its next pinned (forced) move.

Pieces are coded ``type * 64 + square`` with ``type`` 0..5 for pawn, knight, bishop, rook,
queen, king (python-chess piece type minus one). Distances are on the empty board; a pawn
changes file only by capturing, so the bound also checks that enough enemy pieces are left
to capture. The per-side bound is a minimum-cost assignment (scipy) of current pieces to
target pieces or to "captured" slots.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

INF = 1000
MAX_PLANS = 12
PAWN, KNIGHT, BISHOP, ROOK, QUEEN, KING = range(6)


@dataclass(frozen=True)
class Pinned:
    """A forced ply reduced to what the bound needs: mover colour, piece type, squares it may
    start from, destination, whether it captures, and the piece type after the move."""

    ply: int
    white: bool
    piece: int
    from_squares: frozenset[int]
    to_square: int
    capture: bool
    piece_after: int


def _file(sq: int) -> int:
    return sq & 7


def _rank(sq: int) -> int:
    return sq >> 3


def _pawn_dist(white: bool, src: int, dst: int) -> int:
    if src == dst:
        return 0
    forward = (_rank(dst) - _rank(src)) if white else (_rank(src) - _rank(dst))
    files = abs(_file(dst) - _file(src))
    if forward < 1 or files > forward:
        return INF
    start_rank = 1 if white else 6
    if _rank(src) == start_rank and forward >= 2 and files <= forward - 2:
        return forward - 1
    return forward


def _piece_dist_table() -> list[list[list[int]]]:
    """``table[type][src][dst]`` for knight, bishop, rook, queen, king (index 0 unused)."""
    import numpy as np

    knight = np.full((64, 64), INF, dtype=np.int64)
    for src in range(64):
        knight[src, src] = 0
        frontier, seen, depth = [src], {src}, 0
        while frontier:
            depth += 1
            nxt = []
            for sq in frontier:
                for df, dr in ((1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)):
                    f, r = _file(sq) + df, _rank(sq) + dr
                    if 0 <= f < 8 and 0 <= r < 8 and (t := r * 8 + f) not in seen:
                        seen.add(t)
                        knight[src, t] = depth
                        nxt.append(t)
            frontier = nxt
    table = [[[INF] * 64 for _ in range(64)] for _ in range(6)]
    for src in range(64):
        for dst in range(64):
            df, dr = abs(_file(src) - _file(dst)), abs(_rank(src) - _rank(dst))
            same = src == dst
            line = df == 0 or dr == 0
            diag = df == dr
            table[KNIGHT][src][dst] = int(knight[src, dst])
            table[BISHOP][src][dst] = 0 if same else (INF if (df + dr) % 2 else (1 if diag else 2))
            table[ROOK][src][dst] = 0 if same else (1 if line else 2)
            table[QUEEN][src][dst] = 0 if same else (1 if line or diag else 2)
            table[KING][src][dst] = max(df, dr)
    return table


@lru_cache(maxsize=2)
def distance_tensor(white: bool) -> Any:
    """``D[t_from, t_to, src, dst]``: moves for a piece of type ``t_from`` on ``src`` to become a
    piece of type ``t_to`` on ``dst`` (same type: its own distance; pawn to piece: promotion)."""
    import numpy as np

    pieces = _piece_dist_table()
    tensor = np.full((6, 6, 64, 64), INF, dtype=np.int64)
    for kind in range(1, 6):
        tensor[kind, kind] = np.array(pieces[kind])
    pawn = np.array([[_pawn_dist(white, s, d) if 8 <= d < 56 else INF for d in range(64)] for s in range(64)])
    tensor[PAWN, PAWN] = pawn
    last = range(56, 64) if white else range(0, 8)
    to_last = np.array([[_pawn_dist(white, s, q) for q in last] for s in range(64)])
    for kind in (KNIGHT, BISHOP, ROOK, QUEEN):
        via = np.array(pieces[kind])[list(last), :]
        tensor[PAWN, kind] = np.minimum((to_last[:, :, None] + via[None, :, :]).min(axis=1), INF)
    return tensor


def reach(white: bool, kind: int, src: int, dst: int) -> int:
    """Empty-board moves from ``src`` to ``dst`` for one piece (INF when impossible)."""
    return int(distance_tensor(white)[kind, kind, src, dst])


class SideBound:
    """Bounds for one colour against a fixed target, with the game's pinned plies."""

    def __init__(
        self,
        white: bool,
        target: list[int],
        opp_target_count: int,
        total_plies: int,
        pinned: list[Pinned],
        lost_rights: list[int],
    ) -> None:
        import numpy as np

        self.white = white
        self.target = target
        self.opp_target_count = opp_target_count
        self.total_plies = total_plies
        self.own_pinned = [p for p in pinned if p.white == white]
        self.all_pinned = list(pinned)
        self.opp_captures = [p for p in pinned if p.white != white and p.capture]
        self.lost_rights = lost_rights
        self.tensor = distance_tensor(white)
        self.t_types = np.array([c >> 6 for c in target], dtype=np.int64)
        self.t_squares = np.array([c & 63 for c in target], dtype=np.int64)
        self.cache: dict[tuple[Any, ...], int] = {}
        self.gaps = {
            pin.ply: self.tensor[pin.piece, pin.piece][:, sorted(pin.from_squares)].min(axis=1).tolist()
            for pin in self.own_pinned
        }

    def moves_between(self, start: int, stop: int) -> int:
        """Plies of this colour among plies ``start .. stop-1`` (ply 0 is White's first)."""
        parity = 0 if self.white else 1
        return max(0, (stop - parity + 1) // 2 - (start - parity + 1) // 2)

    def bound(self, pieces: tuple[int, ...], opp_count: int, ply: int, rights: int) -> int:
        """Moves this colour needs from ply ``ply`` on (INF if it cannot make it in time, or if it
        has one move left and nothing to do: a move always changes the placement)."""
        key = (pieces, opp_count, ply, rights)
        value = self.cache.get(key)
        if value is None:
            value = self._bound(pieces, opp_count, ply, rights)
            self.cache[key] = value
        return value

    def _bound(self, pieces: tuple[int, ...], opp_count: int, ply: int, rights: int) -> int:
        import numpy as np
        from scipy.optimize import linear_sum_assignment

        left = self.moves_between(ply, self.total_plies)
        n, m = len(pieces), len(self.target)
        captures_needed = opp_count - self.opp_target_count
        if n < m or captures_needed < 0 or captures_needed > left:
            return INF
        types = np.array([c >> 6 for c in pieces], dtype=np.int64)
        squares = np.array([c & 63 for c in pieces], dtype=np.int64)
        cost = np.zeros((n, n), dtype=np.int64)
        cost[:, :m] = self.tensor[types[:, None], self.t_types[None, :], squares[:, None], self.t_squares[None, :]]
        cost[types == KING, m:] = INF
        sacs = [p for p in self.opp_captures if p.ply >= ply]
        if len(sacs) > n - m:
            return INF
        for offset, sac in enumerate(sacs):
            k = self.moves_between(ply, sac.ply)
            col = self.tensor[types, types, squares, sac.to_square]
            cost[:, m + offset] = np.where((col <= k) & (types != KING), col, INF)
        own = [p for p in self.own_pinned if p.ply >= ply]
        blocked = self._blocked(ply, own)
        for row in range(n):
            if int(squares[row]) in blocked:
                cost[row, :m] = np.where(cost[row, :m] == 0, 2, cost[row, :m])
        if captures_needed == 0:
            cost[:, :m] = np.where(
                (types[:, None] == PAWN)
                & (self.t_types[None, :] == PAWN)
                & ((squares[:, None] & 7) != (self.t_squares[None, :] & 7)),
                INF,
                cost[:, :m],
            )
        plans = self._plans(types, squares, own, ply) if own else [{}]
        best = INF
        for plan in plans:
            matrix = self._routed(cost, types, plan, m, sacs) if plan else cost
            rows, cols = linear_sum_assignment(matrix)
            total = int(matrix[rows, cols].sum())
            if total >= INF:
                continue
            total += self._rights_extra(types, squares, rows, cols, matrix, rights, m)
            best = min(best, total)
        best = max(best, captures_needed, len(own))
        if best == 0 and left == 1:
            return INF
        return best if best <= left else INF

    def _blocked(self, ply: int, own: list[Pinned]) -> set[int]:
        """Squares this side's pieces must leave before a pinned ply: destinations of the pinned
        plies still to come (this side's, or the other side's non-captures), castling paths."""
        out: set[int] = set()
        for pin in self.all_pinned:
            if pin.ply < ply or (pin.white != self.white and pin.capture):
                continue
            if pin.piece == KING and abs((pin.to_square & 7) - 4) == 2 and pin.white == self.white:
                rank = pin.to_square & 56
                out.update(range(rank + 5, rank + 7) if pin.to_square & 7 == 6 else range(rank + 1, rank + 4))
            else:
                out.add(pin.to_square)
        return out

    def _plans(self, types: Any, squares: Any, own: list[Pinned], ply: int) -> list[dict[int, tuple[int, int, int]]]:
        """Ways (at most MAX_PLANS) to give each pinned ply to a piece that can get there in time:
        ``{row: (moves so far, square, type)}`` after the piece's last pinned ply."""
        plans: list[dict[int, tuple[int, int, int]]] = []
        kinds, places = types.tolist(), squares.tolist()

        def extend(index: int, state: dict[int, tuple[int, int, int, int]]) -> None:
            if len(plans) >= MAX_PLANS:
                return
            if index == len(own):
                plans.append({row: (spent, sq, kind) for row, (spent, sq, kind, _) in state.items()})
                return
            pin = own[index]
            gaps = self.gaps[pin.ply]
            for row, kind in enumerate(kinds):
                if row in state:
                    spent, sq, kind, free_from = state[row]
                    gap = gaps[sq] if kind == pin.piece else INF
                elif kind == pin.piece:
                    spent, sq, free_from = 0, places[row], ply
                    gap = gaps[sq]
                    if gap == 0 and any(p.to_square == sq for p in own[:index]):
                        gap = 1
                else:
                    continue
                if gap > self.moves_between(free_from, pin.ply):
                    continue
                extend(index + 1, {**state, row: (spent + gap + 1, pin.to_square, pin.piece_after, pin.ply + 1)})

        extend(0, {})
        return plans

    def _routed(self, cost: Any, types: Any, plan: dict[int, tuple[int, int, int]], m: int, sacs: list[Pinned]) -> Any:
        """``cost`` with the rows of the pieces in ``plan`` routed through their pinned plies (a
        piece may then be captured where its last pinned ply left it)."""
        import numpy as np

        matrix = cost.copy()
        dummies = m + len(sacs)
        for row, (spent, sq, kind) in plan.items():
            after = self.tensor[kind, self.t_types, sq, self.t_squares]
            matrix[row, :m] = np.minimum(spent + after, INF)
            for offset, sac in enumerate(sacs):
                matrix[row, m + offset] = spent if sac.to_square == sq and int(types[row]) != KING else INF
            matrix[row, dummies:] = INF if int(types[row]) == KING else spent
        return matrix

    def _rights_extra(self, types: Any, squares: Any, rows: Any, cols: Any, matrix: Any, rights: int, m: int) -> int:
        """Moves needed only to give up castling rights the target no longer has."""
        pending = [sq for sq in self.lost_rights if rights >> sq & 1]
        if not pending:
            return 0
        row_cost = {int(squares[r]): (int(matrix[r, c]), c >= m) for r, c in zip(rows, cols, strict=False)}
        king_sq = 4 if self.white else 60
        king_cost = next((row_cost[int(squares[i])][0] for i in range(len(types)) if types[i] == KING), 0)
        king_extra = 2 if (king_cost == 0 and int(squares[types == KING][0]) == king_sq) else 0
        rook_extra = 0
        for sq in pending:
            cost, captured = row_cost.get(sq, (1, False))
            rook_extra += 2 if cost == 0 and not captured else 0
        return min(king_extra, rook_extra)
