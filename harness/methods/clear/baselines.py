"""Allocations to compare CLEAR with: uniform, proportional to predicted difficulty, and the oracle.

Every allocator maps (predicted curves, whole-token budget) to whole-token budgets whose
sum never exceeds the budget. The oracle is CLEAR's solver given the true curves.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from harness.methods.clear.solver import Curves, allocate

Allocator = Callable[[Curves, int], np.ndarray]


def _largest_remainders(shares: np.ndarray, budget: int) -> np.ndarray:
    """Whole tokens from real-valued shares summing to at most ``budget``: floors, then the largest fractions."""
    floors = np.floor(shares).astype(np.int64)
    spare = int(budget - floors.sum())
    if spare > 0 and len(shares):
        order = np.argsort(-(shares - floors), kind="stable")[:spare]
        floors[order] += 1
    return floors


def uniform(curves: Curves, budget: int) -> np.ndarray:
    """The same share for every query."""
    n = len(curves)
    return _largest_remainders(np.full(n, budget / n), budget) if n else np.zeros(0, dtype=np.int64)


def proportional(curves: Curves, budget: int) -> np.ndarray:
    """Shares proportional to the predicted threshold τ̂ (harder queries get more)."""
    weights = np.maximum(curves.taus, 0.0)
    if not len(weights) or weights.sum() <= 0:
        return uniform(curves, budget)
    return _largest_remainders(budget * weights / weights.sum(), budget)


def clear(curves: Curves, budget: int) -> np.ndarray:
    """CLEAR on the given (predicted) curves."""
    return allocate(curves, budget).budgets


ALLOCATORS: dict[str, Allocator] = {"clear": clear, "uniform": uniform, "proportional": proportional}


def oracle(true_curves: Curves, budget: int) -> np.ndarray:
    """CLEAR's solver given the true curves: what perfect knowledge of τ and the utilities buys."""
    return allocate(true_curves, budget).budgets
