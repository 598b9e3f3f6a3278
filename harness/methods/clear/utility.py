"""Per-query utility families: accuracy as a function of the tokens past the emergence threshold.

A family describes U(x) and u(x) = U'(x) for x = b − τ > 0 (both 0 for x ≤ 0), the
largest marginal utility it reaches (above it no query is worth funding) and the inverse
of the marginal on its decreasing branch, x*(λ). New families implement the same protocol.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

import numpy as np
from numpy.typing import ArrayLike, NDArray

FloatArray = NDArray[np.float64]


class UtilityFamily(Protocol):
    """U and u of a query given its excess tokens x = b − τ."""

    @property
    def name(self) -> str:
        """The family's name, as ``make_family`` takes it."""
        ...

    def utility(self, x: ArrayLike) -> FloatArray:
        """Accuracy at excess ``x`` (0 where x ≤ 0)."""
        ...

    def marginal(self, x: ArrayLike) -> FloatArray:
        """dU/dx at excess ``x`` (0 where x ≤ 0)."""
        ...

    def max_marginal(self) -> float:
        """The supremum of u over x > 0: at a price λ at or above it nothing is funded."""
        ...

    def excess_at_price(self, lam: ArrayLike) -> FloatArray:
        """x*(λ): the excess where u(x) = λ on the decreasing branch; 0 where λ ≥ max_marginal()."""
        ...


@dataclass(frozen=True)
class ShiftedSurge:
    """The shifted-surge family: u(x) = α·x·e^(−βx), U(x) = (α/β²)·[1 − (1+βx)·e^(−βx)].

    Accuracy is 0 up to the threshold, surges, then saturates at α/β².
    x*(λ) = −W₋₁(−βλ/α)/β for 0 < λ < α/(eβ).
    """

    alpha: float
    beta: float
    name: str = "surge"

    def __post_init__(self) -> None:
        if not (self.alpha > 0 and self.beta > 0 and math.isfinite(self.alpha) and math.isfinite(self.beta)):
            raise ValueError(f"shifted surge needs alpha > 0 and beta > 0, got alpha={self.alpha}, beta={self.beta}")

    @classmethod
    def from_ceiling(cls, ceiling: float, scale: float) -> ShiftedSurge:
        """The family saturating at ``ceiling`` with 1/β = ``scale`` tokens."""
        beta = 1.0 / scale
        return cls(alpha=ceiling * beta * beta, beta=beta)

    @property
    def ceiling(self) -> float:
        """The saturation accuracy α/β²."""
        return self.alpha / self.beta**2

    def utility(self, x: ArrayLike) -> FloatArray:
        """(α/β²)·[1 − (1+βx)·e^(−βx)] for x > 0."""
        z = self.beta * np.maximum(np.asarray(x, dtype=float), 0.0)
        return self.ceiling * -np.expm1(-z) - self.ceiling * z * np.exp(-z)

    def marginal(self, x: ArrayLike) -> FloatArray:
        """α·x·e^(−βx) for x > 0."""
        xs = np.maximum(np.asarray(x, dtype=float), 0.0)
        return self.alpha * xs * np.exp(-self.beta * xs)

    def max_marginal(self) -> float:
        """α/(eβ), reached at x = 1/β."""
        return self.alpha / (math.e * self.beta)

    def excess_at_price(self, lam: ArrayLike) -> FloatArray:
        """−W₋₁(−βλ/α)/β on the decreasing branch (x ≥ 1/β); 0 at or above α/(eβ), ∞ at λ ≤ 0."""
        from scipy.special import lambertw

        prices = np.asarray(lam, dtype=float)
        inside = (prices > 0) & (prices < self.max_marginal())
        argument = -self.beta * np.where(inside, prices, self.max_marginal() / 2) / self.alpha
        excess = -lambertw(argument, k=-1).real / self.beta
        return np.where(inside, excess, np.where(prices <= 0, np.inf, 0.0))


@dataclass(frozen=True)
class SaturatingExponential:
    """A family without a surge: U(x) = A·(1 − e^(−kx)), u(x) = A·k·e^(−kx); x*(λ) = ln(Ak/λ)/k."""

    ceiling: float
    rate: float
    name: str = "exponential"

    def __post_init__(self) -> None:
        if not (self.ceiling > 0 and self.rate > 0):
            raise ValueError(f"saturating exponential needs ceiling > 0 and rate > 0, got {self.ceiling}, {self.rate}")

    def utility(self, x: ArrayLike) -> FloatArray:
        """A·(1 − e^(−kx)) for x > 0."""
        return self.ceiling * -np.expm1(-self.rate * np.maximum(np.asarray(x, dtype=float), 0.0))

    def marginal(self, x: ArrayLike) -> FloatArray:
        """A·k·e^(−kx) for x > 0, else 0."""
        xs = np.asarray(x, dtype=float)
        return np.where(xs > 0, self.ceiling * self.rate * np.exp(-self.rate * np.maximum(xs, 0.0)), 0.0)

    def max_marginal(self) -> float:
        """A·k, at x → 0+."""
        return self.ceiling * self.rate

    def excess_at_price(self, lam: ArrayLike) -> FloatArray:
        """ln(Ak/λ)/k below A·k; 0 at or above it, ∞ at λ ≤ 0."""
        prices = np.asarray(lam, dtype=float)
        inside = (prices > 0) & (prices < self.max_marginal())
        excess = np.log(self.max_marginal() / np.where(inside, prices, 1.0)) / self.rate
        return np.where(inside, excess, np.where(prices <= 0, np.inf, 0.0))


FAMILIES: dict[str, Callable[[float, float], UtilityFamily]] = {
    "surge": ShiftedSurge,
    "exponential": SaturatingExponential,
}


def make_family(name: str, first: float, second: float) -> UtilityFamily:
    """A family by name from its two parameters (surge: alpha, beta; exponential: ceiling, rate)."""
    if name not in FAMILIES:
        raise ValueError(f"unknown utility family {name!r}; known: {', '.join(FAMILIES)}")
    return FAMILIES[name](first, second)
