"""Streams: queries arrive in windows; each window is allocated its share of the budget as it comes.

A window's budget is its share of the total plus whatever earlier windows left unspent,
and its price search starts from the previous window's λ (λ carried over), so a steady
stream re-solves in a few bisection steps and prices stay consistent across windows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from harness.methods.clear.solver import Allocation, Curves, allocate


@dataclass(frozen=True)
class StreamAllocation:
    """The budgets of every query in arrival order, and each window's allocation."""

    budgets: np.ndarray
    windows: tuple[Allocation, ...]

    @property
    def prices(self) -> list[float]:
        """λ of each window."""
        return [w.lam for w in self.windows]


def allocate_stream(windows: Sequence[Curves], total_budget: int) -> StreamAllocation:
    """Allocate ``total_budget`` over ``windows`` in order, each getting a per-query share plus the carry."""
    sizes = [len(w) for w in windows]
    remaining_queries = sum(sizes)
    remaining_budget = int(total_budget)
    hint: float | None = None
    done: list[Allocation] = []
    for curves, size in zip(windows, sizes, strict=False):
        share = remaining_budget * size // remaining_queries if remaining_queries else 0
        allocation = allocate(curves, share, hint)
        spent = int(allocation.budgets.sum())
        remaining_budget -= spent
        remaining_queries -= size
        hint = allocation.lam
        done.append(allocation)
    budgets = np.concatenate([a.budgets for a in done]) if done else np.zeros(0, dtype=np.int64)
    return StreamAllocation(budgets, tuple(done))
