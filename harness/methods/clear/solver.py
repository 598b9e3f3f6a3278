"""The CLEAR allocation: a shadow price λ, found by bisection, splits a token budget across queries.

At price λ each query i gets b_i = τ_i + x_i*(λ) when its surplus U_i(b_i) − λ·b_i is
positive and nothing otherwise (it is abandoned). Total spending falls as λ rises, so λ
is bisected (geometrically) to the smallest price whose spending fits the budget B.
Allocations are whole tokens (floored); the tokens left over, from flooring and from the
last query priced out, are handed out greedily by marginal gain per token.
"""

from __future__ import annotations

import heapq
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from harness.methods.clear.utility import FloatArray, UtilityFamily

BISECTION_STEPS = 200
RELATIVE_TOLERANCE = 1e-12
GREEDY_CHUNKS = 2000
REPAIR_WIDTH = 8


@dataclass(frozen=True)
class Curves:
    """The per-query curves: thresholds τ_i and each query's utility family (shared or one per query)."""

    taus: FloatArray
    families: tuple[UtilityFamily, ...]
    index: tuple[np.ndarray, ...]

    @classmethod
    def of(cls, taus: Sequence[float] | np.ndarray, family: UtilityFamily | Sequence[UtilityFamily]) -> Curves:
        """Curves from thresholds and one shared family or one family per query."""
        values = np.asarray(taus, dtype=float)
        if values.ndim != 1 or not np.all(np.isfinite(values)) or np.any(values < 0):
            raise ValueError("thresholds must be a flat list of finite, non-negative token counts")
        per_query = list(family) if isinstance(family, Sequence) else [family] * len(values)
        if len(per_query) != len(values):
            raise ValueError(f"{len(per_query)} families for {len(values)} thresholds")
        groups: dict[int, list[int]] = {}
        representative: dict[int, UtilityFamily] = {}
        for i, fam in enumerate(per_query):
            groups.setdefault(id(fam), []).append(i)
            representative[id(fam)] = fam
        return cls(
            values, tuple(representative[k] for k in groups), tuple(np.asarray(v, dtype=int) for v in groups.values())
        )

    def __len__(self) -> int:
        return len(self.taus)

    def utility(self, budgets: np.ndarray) -> FloatArray:
        """U_i(b_i) for every query."""
        out = np.zeros(len(self.taus))
        for family, idx in zip(self.families, self.index, strict=False):
            out[idx] = family.utility(np.asarray(budgets, dtype=float)[idx] - self.taus[idx])
        return out

    def marginal(self, budgets: np.ndarray) -> FloatArray:
        """u_i(b_i − τ_i) for every query."""
        out = np.zeros(len(self.taus))
        for family, idx in zip(self.families, self.index, strict=False):
            out[idx] = family.marginal(np.asarray(budgets, dtype=float)[idx] - self.taus[idx])
        return out

    def max_price(self) -> float:
        """The highest marginal utility any query can reach."""
        return max((f.max_marginal() for f in self.families), default=0.0)


@dataclass(frozen=True)
class PricedAllocation:
    """What price λ buys: continuous budgets, the funded mask and each query's surplus."""

    lam: float
    budgets: FloatArray
    funded: np.ndarray
    surplus: FloatArray

    @property
    def total(self) -> float:
        """Tokens spent at this price."""
        return float(self.budgets.sum())


def targets_at(curves: Curves, lam: float) -> FloatArray:
    """τ_i + x_i*(λ) for every query (τ_i where λ is above the query's largest marginal utility)."""
    targets = np.zeros(len(curves))
    for family, idx in zip(curves.families, curves.index, strict=False):
        targets[idx] = curves.taus[idx] + family.excess_at_price(lam)
    return targets


def at_price(curves: Curves, lam: float) -> PricedAllocation:
    """Each query's budget at price λ: τ + x*(λ) when its surplus is positive, else 0."""
    targets = targets_at(curves, lam)
    with np.errstate(invalid="ignore"):
        surplus = curves.utility(targets) - lam * targets
    excess_positive = targets > curves.taus
    funded = excess_positive & (surplus > 0)
    return PricedAllocation(lam, np.where(funded, targets, 0.0), funded, np.where(excess_positive, surplus, -np.inf))


@dataclass(frozen=True)
class Allocation:
    """Whole-token budgets per query, the price λ, and the pure price-rule state they started from.

    ``repaired`` is how many queries beyond the price rule's were funded (see ``allocate``).
    """

    budgets: np.ndarray
    lam: float
    priced: PricedAllocation
    leftover: int
    repaired: int = 0

    @property
    def funded(self) -> np.ndarray:
        """Queries funded by the price rule (before the greedy leftovers)."""
        return self.priced.funded


def solve_price(curves: Curves, budget: float, hint: float | None = None) -> PricedAllocation:
    """The smallest price whose spending fits ``budget`` (bisection in log space, warm-started by ``hint``)."""
    top = curves.max_price()
    if len(curves) == 0 or top <= 0 or budget <= 0:
        return at_price(curves, top if top > 0 else 1.0)
    hi = min(hint * 2, top) if hint and 0 < hint < top else top
    while hi < top and at_price(curves, hi).total > budget:
        hi = min(hi * 4, top)
    lo = hi / 2
    while at_price(curves, lo).total <= budget:
        hi, lo = lo, lo / 4
        if lo < 1e-300:
            return at_price(curves, hi)
    for _ in range(BISECTION_STEPS):
        mid = math.sqrt(lo * hi)
        if at_price(curves, mid).total <= budget:
            hi = mid
        else:
            lo = mid
        if hi / lo - 1 < RELATIVE_TOLERANCE:
            break
    return at_price(curves, hi)


def _family_of(curves: Curves) -> list[UtilityFamily]:
    owners: list[UtilityFamily] = [curves.families[0]] * len(curves) if curves.families else []
    for family, idx in zip(curves.families, curves.index, strict=False):
        for i in idx:
            owners[int(i)] = family
    return owners


def _best_move(family: UtilityFamily, tau: float, current: float, remaining: int, chunk: int) -> tuple[float, int]:
    """The best gain per token for one query: a chunk more, or (when unfunded) switching it on."""
    if remaining <= 0:
        return 0.0, 0
    if current > tau:
        step = min(chunk, remaining)
        gain = float(family.utility(np.array([current + step - tau]))[0] - family.utility(np.array([current - tau]))[0])
        return gain / step, step
    first = math.floor(tau) + 1 - int(current)
    if first > remaining:
        return 0.0, 0
    sizes = np.unique(np.linspace(first, remaining, 64).astype(int))
    ratios = family.utility(current + sizes - tau) / sizes
    best = int(np.argmax(ratios))
    return float(ratios[best]), int(sizes[best])


def hand_out(curves: Curves, budgets: np.ndarray, leftover: int) -> tuple[np.ndarray, int]:
    """Give ``leftover`` tokens away greedily, each move the best gain per token; returns budgets and what is left."""
    budgets = budgets.astype(np.int64).copy()
    owners = _family_of(curves)
    chunk = max(1, math.ceil(leftover / GREEDY_CHUNKS))
    heap = []
    for i in range(len(curves)):
        ratio, size = _best_move(owners[i], float(curves.taus[i]), float(budgets[i]), leftover, chunk)
        if size and ratio > 0:
            heap.append((-ratio, i))
    heapq.heapify(heap)
    while heap and leftover > 0:
        _, i = heapq.heappop(heap)
        ratio, size = _best_move(owners[i], float(curves.taus[i]), float(budgets[i]), leftover, chunk)
        if not size or ratio <= 0:
            continue
        if heap and ratio < -heap[0][0]:
            heapq.heappush(heap, (-ratio, i))
            continue
        budgets[i] += size
        leftover -= size
        ratio, size = _best_move(owners[i], float(curves.taus[i]), float(budgets[i]), leftover, chunk)
        if size and ratio > 0:
            heapq.heappush(heap, (-ratio, i))
    return budgets, leftover


def _surplus_positive(family: UtilityFamily, taus: np.ndarray, prices: np.ndarray) -> np.ndarray:
    """Where buying at ``prices`` leaves a query of ``family`` a positive surplus."""
    excess = family.excess_at_price(prices)
    return (excess > 0) & (family.utility(excess) - prices * (taus + excess) > 0)


def entry_prices(curves: Curves, steps: int = 80) -> FloatArray:
    """Each query's entry price: the highest λ at which its surplus is positive (0 if none)."""
    out = np.zeros(len(curves))
    for family, idx in zip(curves.families, curves.index, strict=False):
        taus = curves.taus[idx]
        top = family.max_marginal()
        lo, hi = np.full(len(idx), top * 1e-12), np.full(len(idx), top)
        alive = _surplus_positive(family, taus, lo)
        for _ in range(steps):
            mid = np.sqrt(lo * hi)
            ok = _surplus_positive(family, taus, mid)
            lo, hi = np.where(ok, mid, lo), np.where(ok, hi, mid)
        out[idx] = np.where(alive, lo, 0.0)
    return out


def fixed_set_budgets(curves: Curves, members: np.ndarray, budget: float) -> FloatArray | None:
    """Budgets that fund exactly ``members`` at the one price whose spending meets ``budget``.

    Marginal utilities stay equal across the members (all on their decreasing branch); None
    when even the highest such price overspends.
    """
    mask = np.zeros(len(curves), dtype=bool)
    mask[members] = True
    top = min(f.max_marginal() for f, idx in zip(curves.families, curves.index, strict=False) if mask[idx].any())
    hi, lo = top * (1 - 1e-9), top * 1e-12

    def spend(lam: float) -> float:
        return float(targets_at(curves, lam)[mask].sum())

    if spend(hi) > budget:
        return None
    for _ in range(BISECTION_STEPS):
        mid = math.sqrt(lo * hi)
        if spend(mid) <= budget:
            hi = mid
        else:
            lo = mid
        if hi / lo - 1 < RELATIVE_TOLERANCE:
            break
    return np.where(mask, targets_at(curves, hi), 0.0)


def _finish(curves: Curves, continuous: FloatArray, budget: int) -> tuple[np.ndarray, int, float]:
    floored = np.floor(continuous).astype(np.int64)
    budgets, leftover = hand_out(curves, floored, int(budget - floored.sum()))
    return budgets, leftover, float(curves.utility(budgets).sum())


def allocate(curves: Curves, budget: int, hint: float | None = None, repair_width: int = REPAIR_WIDTH) -> Allocation:
    """CLEAR: the price rule's budgets (floored to whole tokens), then the leftovers handed out greedily.

    Funding is all-or-nothing, so spending jumps as λ falls past a query's entry price and
    the price rule may leave a query unfunded that the budget could carry. The repair also
    tries funding the next ``repair_width`` queries by entry price, each set at the price
    that exactly meets the budget, and keeps whichever allocation predicts the most
    accuracy. The total never exceeds ``budget``; it falls short only when no query gains.
    """
    if budget < 0:
        raise ValueError(f"budget must be non-negative, got {budget}")
    priced = solve_price(curves, float(budget), hint)
    best = (*_finish(curves, priced.budgets, budget), 0)
    funded = int(priced.funded.sum())
    if repair_width > 0 and funded < len(curves):
        order = np.argsort(-entry_prices(curves), kind="stable")
        for extra in range(1, min(repair_width, len(curves) - funded) + 1):
            continuous = fixed_set_budgets(curves, order[: funded + extra], float(budget))
            if continuous is None:
                break
            candidate = (*_finish(curves, continuous, budget), extra)
            if candidate[2] > best[2]:
                best = candidate
    budgets, leftover, _, repaired = best
    return Allocation(budgets, priced.lam, priced, leftover, repaired)
