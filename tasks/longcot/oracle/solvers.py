"""Reference solvers for the logic templates that store no solution: BlocksWorld, RandomHanoi,
Sudoku and Sokoban. They produce a valid (not necessarily shortest) solution, used by the oracle
and by the generators; each is bounded and returns None when it gives up."""

from __future__ import annotations

from collections import deque

Move = list[int]


def blocksworld(initial: list[list[int]], goal: list[list[int]]) -> list[Move] | None:
    """Moves ``[block, from, to]`` that build each goal stack bottom-up (needs at least 3 stacks)."""
    state = [list(s) for s in initial]
    k = len(state)
    if k < 3 or len(goal) != k or sorted(b for s in state for b in s) != sorted(b for s in goal for b in s):
        return None
    moves: list[Move] = []

    def move(src: int, dst: int) -> None:
        moves.append([state[src][-1], src, dst])
        state[dst].append(state[src].pop())

    def fixed(i: int) -> int:
        n = 0
        while n < len(state[i]) and n < len(goal[i]) and state[i][n] == goal[i][n]:
            n += 1
        return n

    while state != goal:
        i = next(j for j in range(k) if fixed(j) < len(goal[j]) or len(state[j]) > len(goal[j]))
        while len(state[i]) > fixed(i):
            move(i, (i + 1) % k)
        if fixed(i) == len(goal[i]):
            continue
        block = goal[i][fixed(i)]
        src = next(j for j in range(k) if block in state[j])
        spare = next(j for j in range(k) if j not in (i, src))
        while state[src][-1] != block:
            move(src, spare)
        move(src, i)
    return moves


def hanoi(initial: list[list[int]], goal: list[list[int]]) -> list[Move] | None:
    """Moves between arbitrary legal Hanoi configurations (larger numbers are larger discs)."""
    state = [list(s) for s in initial]
    k = len(state)
    where = {d: i for i, s in enumerate(state) for d in s}
    target = {d: i for i, s in enumerate(goal) for d in s}
    if k < 3 or where.keys() != target.keys():
        return None
    moves: list[Move] = []

    def tower(disc: int, peg: int) -> None:
        """Gather discs ``0..disc`` on ``peg``."""
        if disc < 0:
            return
        if where[disc] != peg:
            other = next(p for p in range(k) if p not in (where[disc], peg))
            tower(disc - 1, other)
            src = where[disc]
            moves.append([disc, src, peg])
            state[peg].append(state[src].pop())
            where[disc] = peg
        tower(disc - 1, peg)

    for disc in sorted(where, reverse=True):
        if where[disc] != target[disc]:
            other = next(p for p in range(k) if p not in (where[disc], target[disc]))
            tower(disc - 1, other)
            src = where[disc]
            moves.append([disc, src, target[disc]])
            state[target[disc]].append(state[src].pop())
            where[disc] = target[disc]
    return moves if state == goal else None


def sudoku(puzzle: list[list[int]], block: int, max_nodes: int = 2_000_000) -> list[list[int]] | None:
    """A completed grid by backtracking with the most-constrained cell first."""
    side = block * block
    grid = [list(row) for row in puzzle]
    full = set(range(1, side + 1))
    nodes = 0

    def options(r: int, c: int) -> set[int]:
        br, bc = r - r % block, c - c % block
        used = set(grid[r]) | {grid[i][c] for i in range(side)}
        used |= {grid[i][j] for i in range(br, br + block) for j in range(bc, bc + block)}
        return full - used

    def solve() -> bool:
        nonlocal nodes
        nodes += 1
        if nodes > max_nodes:
            return False
        best = None
        for r in range(side):
            for c in range(side):
                if not grid[r][c]:
                    opts = options(r, c)
                    if best is None or len(opts) < len(best[2]):
                        best = (r, c, opts)
        if best is None:
            return True
        r, c, opts = best
        for value in sorted(opts):
            grid[r][c] = value
            if solve():
                return True
        grid[r][c] = 0
        return False

    return grid if solve() else None


def sokoban(instance: dict, max_states: int = 400_000) -> str | None:
    """A U/D/L/R string pushing every box onto a goal (breadth-first over pushes, dead squares pruned)."""
    walls = {tuple(c) for c in instance["walls"]}
    goals = frozenset(tuple(c) for c in instance["goals"])
    boxes0 = frozenset(tuple(c) for c in instance["boxes"])
    player0 = tuple(instance["player"])
    dirs = {"U": (-1, 0), "D": (1, 0), "L": (0, -1), "R": (0, 1)}
    cells = {(r, c) for r in range(instance["height"]) for c in range(instance["width"])} - walls
    live = set(goals)
    frontier = deque(goals)
    while frontier:
        r, c = frontier.popleft()
        for dr, dc in dirs.values():
            prev, puller = (r - dr, c - dc), (r - 2 * dr, c - 2 * dc)
            if prev in cells and puller in cells and prev not in live:
                live.add(prev)
                frontier.append(prev)

    def walk(start: tuple[int, int], boxes: frozenset) -> dict[tuple[int, int], str]:
        paths = {start: ""}
        queue = deque([start])
        while queue:
            r, c = queue.popleft()
            for name, (dr, dc) in dirs.items():
                nxt = (r + dr, c + dc)
                if nxt in cells and nxt not in boxes and nxt not in paths:
                    paths[nxt] = paths[(r, c)] + name
                    queue.append(nxt)
        return paths

    def key(player: tuple[int, int], boxes: frozenset) -> tuple:
        return (min(walk(player, boxes)), boxes)

    start_key = key(player0, boxes0)
    seen = {start_key}
    queue = deque([(player0, boxes0, "")])
    while queue:
        player, boxes, path = queue.popleft()
        if boxes == goals:
            return path
        reach = walk(player, boxes)
        for box in boxes:
            for name, (dr, dc) in dirs.items():
                stand, dest = (box[0] - dr, box[1] - dc), (box[0] + dr, box[1] + dc)
                if stand not in reach or dest not in live or dest in boxes:
                    continue
                new_boxes = (boxes - {box}) | {dest}
                state = key(box, new_boxes)
                if state in seen:
                    continue
                if len(seen) >= max_states:
                    return None
                seen.add(state)
                queue.append((box, new_boxes, path + reach[stand] + name))
    return None
