"""Confidence intervals: Wilson for proportions, a seeded percentile bootstrap otherwise."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Literal

from harness.types import MetricValue

Z95 = 1.959963984540054
BOOTSTRAP_RESAMPLES = 2000


def wilson_interval(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for ``successes`` out of ``n``."""
    if n == 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def bootstrap_interval(
    values: Sequence[float], seed: int = 0, resamples: int = BOOTSTRAP_RESAMPLES
) -> tuple[float, float]:
    """Percentile bootstrap 95% interval of the mean, deterministic for ``seed`` whatever the order of ``values``."""
    import numpy as np

    data = np.sort(np.asarray(values, dtype=float))
    if data.size == 0:
        return (math.nan, math.nan)
    rng = np.random.default_rng(seed)
    means = data[rng.integers(0, data.size, size=(resamples, data.size))].mean(axis=1)
    low, high = np.percentile(means, [2.5, 97.5])
    return (float(low), float(high))


def is_binary(values: Sequence[float]) -> bool:
    """True when every value is 0 or 1."""
    return all(v in (0.0, 1.0) for v in values)


MetricKind = Literal["auto", "proportion", "mean"]


def mean_metric(values: Sequence[float], seed: int = 0, kind: MetricKind = "auto") -> MetricValue:
    """Mean of ``values`` with n and a 95% CI.

    Wilson for a proportion, bootstrap for a mean; ``auto`` treats all-0/1 values as a proportion,
    so counts (tokens, steps) must say ``kind="mean"``.
    """
    n = len(values)
    if n == 0:
        return MetricValue(value=None, n=0, method="empty")
    if kind == "proportion" or (kind == "auto" and is_binary(values)):
        return proportion_metric(math.fsum(values), n)
    low, high = bootstrap_interval(values, seed=seed)
    return MetricValue(value=math.fsum(values) / n, n=n, ci_low=low, ci_high=high, method="bootstrap")


def proportion_metric(successes: float, n: int) -> MetricValue:
    """The share ``successes / n`` with its Wilson interval (``empty`` when ``n`` is 0)."""
    if n == 0:
        return MetricValue(value=None, n=0, method="empty")
    low, high = wilson_interval(successes, n)
    return MetricValue(value=successes / n, n=n, ci_low=low, ci_high=high, method="wilson")


def ratio_metric(numerators: Sequence[float], denominators: Sequence[float], seed: int = 0) -> MetricValue:
    """Ratio of sums (such as micro F1 or Po/(Po+Pc)) with a paired bootstrap CI over samples, order-independent.

    When every numerator and denominator is 0 or 1 the ratio is a share of the samples whose
    denominator is 1, so it gets the Wilson interval every share gets (n: those samples).
    """
    import numpy as np

    binary = is_binary(numerators) and is_binary(denominators)
    if binary and all(num <= den for num, den in zip(numerators, denominators, strict=True)):
        return proportion_metric(math.fsum(numerators), round(math.fsum(denominators)))
    pairs = sorted(zip(numerators, denominators, strict=True))
    num = np.asarray([p[0] for p in pairs], dtype=float)
    den = np.asarray([p[1] for p in pairs], dtype=float)
    n = int(num.size)
    if n == 0 or den.sum() == 0:
        return MetricValue(value=None, n=n, method="empty")
    value = float(num.sum() / den.sum())
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, n, size=(BOOTSTRAP_RESAMPLES, n))
    num_sums, den_sums = num[idx].sum(axis=1), den[idx].sum(axis=1)
    ratios = num_sums[den_sums > 0] / den_sums[den_sums > 0]
    low, high = np.percentile(ratios, [2.5, 97.5])
    return MetricValue(value=value, n=n, ci_low=float(low), ci_high=float(high), method="bootstrap-ratio")
