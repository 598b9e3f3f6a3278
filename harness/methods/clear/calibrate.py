"""Fitting the shared parameters α and β of the shifted-surge family on a calibration run."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from harness.methods.clear.utility import ShiftedSurge


def fit_surge(budgets: ArrayLike, taus: ArrayLike, outcomes: ArrayLike) -> ShiftedSurge:
    """Least-squares fit of α, β to observed outcomes (0/1 or accuracies) at budgets b with thresholds τ.

    Fitted as ceiling c = α/β² in (0, 1] and scale s = 1/β tokens, which are better conditioned.
    """
    from scipy.optimize import curve_fit

    b, t, y = (np.asarray(v, dtype=float) for v in (budgets, taus, outcomes))
    if not (len(b) == len(t) == len(y)) or len(b) < 3:
        raise ValueError("calibration needs at least 3 observations, with budgets, thresholds and outcomes aligned")
    x = np.maximum(b - t, 0.0)

    def model(excess: np.ndarray, ceiling: float, scale: float) -> np.ndarray:
        z = excess / scale
        return ceiling * (1.0 - (1.0 + z) * np.exp(-z))

    scale0 = float(np.median(x[x > 0])) / 3 if np.any(x > 0) else 1.0
    (ceiling, scale), _ = curve_fit(
        model,
        x,
        y,
        p0=(max(min(float(y.max()), 1.0), 0.05), max(scale0, 1.0)),
        bounds=([1e-6, 1e-6], [1.0, np.inf]),
        maxfev=20_000,
    )
    return ShiftedSurge.from_ceiling(float(ceiling), float(scale))
