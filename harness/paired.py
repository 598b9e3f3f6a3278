"""Paired statistics of two systems scored on the same items: difference, CI, test, SEs, power.

The data of one task is a :class:`Stratum`: each item's value under system A and under system B
(a mean over trials where the task was run with several), and the cluster each item belongs to
(items of one template or source fact are correlated; an item without a declared cluster is a
cluster of its own; fewer than :data:`MIN_CLUSTERS` clusters are too few to use). The
difference is B − A, the mean over items of the per-item differences.

* **CI**: a seeded expanded percentile bootstrap (:func:`expanded_tail`) that resamples clusters
  (items when none are declared), keeping each item's pair together; across the tasks of a
  suite, each task is resampled apart and the suite's difference is the mean of the tasks' differences.
* **Test**: exact McNemar (a two-sided binomial test on the discordant pairs) for 0/1 values
  without clusters; otherwise a sign-flip test, flipping whole clusters (exact up to 2**16
  sign patterns, else 10,000 seeded draws).
* **SE**: cluster-robust; unpaired is the same computed on A and B apart, as if the items differed.
* **MDE**: the smallest difference a two-sided 5 % test detects with 80 % power, from the
  observed discordance (the mean squared per-item difference under the null).

Every result is deterministic for a seed and independent of the order the items are given in.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import TYPE_CHECKING, Literal

from harness.stats import BOOTSTRAP_RESAMPLES, Z95

if TYPE_CHECKING:
    import numpy as np

Z80 = 0.8416212335729143
"""The standard normal quantile of 0.80 (80 % power)."""
SIGN_FLIPS = 10_000
"""Random sign patterns drawn when there are too many clusters to enumerate them all."""
EXACT_FLIP_CLUSTERS = 16
"""Up to this many clusters, every sign pattern is enumerated."""
MIN_CLUSTERS = 10
"""Fewer declared clusters than this are too few to resample (a variance from 4 templates is mostly
noise): the items are then resampled one by one, and the output says so."""

Test = Literal["mcnemar-exact", "sign-flip", "none"]


@dataclass(frozen=True)
class Item:
    """One paired item: its key, its cluster (None: its own) and its values under A and B."""

    key: str
    cluster: str | None
    a: float
    b: float


class Stratum:
    """The paired items of one task, sorted by key, with their clusters coded in key order.

    Items are resampled by cluster when at least :data:`MIN_CLUSTERS` clusters are declared (and
    fewer than the items), else one by one.
    """

    def __init__(self, items: Sequence[Item]) -> None:
        import numpy as np

        ordered = sorted(items, key=lambda item: item.key)
        self.n = len(ordered)
        self.a = np.asarray([item.a for item in ordered], dtype=float)
        self.b = np.asarray([item.b for item in ordered], dtype=float)
        names = [item.cluster if item.cluster is not None else f"\x00{item.key}" for item in ordered]
        self.declared = len(set(names)) if any(item.cluster is not None for item in ordered) else 0
        """How many clusters the items fall in, as declared (0: none declared)."""
        self.clustered = MIN_CLUSTERS <= self.declared < self.n
        if not self.clustered:
            names = [item.key for item in ordered]
        index = {name: code for code, name in enumerate(sorted(set(names)))}
        self.codes = np.asarray([index[name] for name in names], dtype=np.intp)
        self.k = len(index)
        self.sizes = np.bincount(self.codes, minlength=self.k).astype(float)

    @classmethod
    def unclustered(cls, a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray) -> Stratum:
        """The stratum of items with distinct keys, given in key order by their values under A and B, none in a
        declared cluster: the same as from their :class:`Item` objects, without making them (a leaderboard
        pairs ~600,000 items)."""
        import numpy as np

        stratum = cls.__new__(cls)
        stratum.n = stratum.k = len(a)
        stratum.a, stratum.b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
        stratum.declared, stratum.clustered = 0, False
        stratum.codes = np.arange(stratum.n, dtype=np.intp)
        stratum.sizes = np.ones(stratum.n)
        return stratum

    def sums(self, values: np.ndarray) -> np.ndarray:
        """Per-cluster sums of per-item ``values``."""
        import numpy as np

        return np.bincount(self.codes, weights=values, minlength=self.k)

    @property
    def d(self) -> np.ndarray:
        """Per-item differences B − A."""
        return self.b - self.a

    @property
    def binary(self) -> bool:
        """Whether every value is 0 or 1."""
        import numpy as np

        both = np.concatenate([self.a, self.b])
        return bool(np.all((both == 0.0) | (both == 1.0)))


def mean_se(stratum: Stratum, values: np.ndarray) -> float:
    """The cluster-robust standard error of the mean of ``values`` (NaN with fewer than two clusters)."""
    if stratum.k < 2:
        return math.nan
    mean = float(values.sum()) / stratum.n
    residuals = stratum.sums(values) - stratum.sizes * mean
    return math.sqrt(stratum.k / (stratum.k - 1) * float((residuals**2).sum())) / stratum.n


def _weights(strata: Sequence[Stratum]) -> np.ndarray:
    """Each cluster's share of the (mean over strata of the) difference: its summed difference / (n_t · T)."""
    import numpy as np

    return np.concatenate([s.sums(s.d) / (s.n * len(strata)) for s in strata])


def difference(strata: Sequence[Stratum]) -> float:
    """The mean over strata of each stratum's mean difference B − A."""
    return math.fsum(float(s.d.sum()) / s.n for s in strata) / len(strata)


def se_paired(strata: Sequence[Stratum]) -> float:
    """The standard error of :func:`difference`, strata independent, clusters resampled."""
    return math.sqrt(math.fsum(mean_se(s, s.d) ** 2 for s in strata)) / len(strata)


def se_unpaired(strata: Sequence[Stratum]) -> float:
    """The standard error the difference would have were A's and B's items independent samples."""
    return math.sqrt(math.fsum(mean_se(s, s.a) ** 2 + mean_se(s, s.b) ** 2 for s in strata)) / len(strata)


CACHED_DRAWS = 500_000
"""Draw matrices up to this many indices (4 MB) are kept for reuse by :func:`first_draws`."""


@lru_cache(maxsize=8)
def first_draws(seed: int, clusters: int, resamples: int) -> np.ndarray:
    """The first ``resamples`` x ``clusters`` indices a fresh generator of ``seed`` draws (read-only): a site
    computes thousands of one-stratum intervals over the same number of items, each with the same draws."""
    import numpy as np

    drawn = np.random.default_rng(seed).integers(0, clusters, size=(resamples, clusters))
    drawn.flags.writeable = False
    return drawn


def bootstrap_ci(strata: Sequence[Stratum], seed: int = 0, resamples: int = BOOTSTRAP_RESAMPLES) -> tuple[float, float]:
    """Percentile 95 % interval of :func:`difference`, resampling each stratum's clusters with replacement."""
    import numpy as np

    rng = np.random.default_rng(seed)
    total = np.zeros(resamples)
    for stratum in strata:
        sums, sizes = stratum.sums(stratum.d), stratum.sizes
        rows = max(1, 4_000_000 // stratum.k)
        for start in range(0, resamples, rows):
            count = min(rows, resamples - start)
            if len(strata) == 1 and count == resamples and count * stratum.k <= CACHED_DRAWS:
                drawn = first_draws(seed, stratum.k, resamples)  # the one draw of a fresh generator
            else:
                drawn = rng.integers(0, stratum.k, size=(count, stratum.k))
            items = sizes[drawn].sum(axis=1) if stratum.clustered else stratum.k  # one item a cluster otherwise
            total[start : start + count] += sums[drawn].sum(axis=1) / items
    tail = 100 * expanded_tail(min(s.k for s in strata))
    low, high = np.percentile(total / len(strata), [tail, 100 - tail])
    return (float(low), float(high))


@lru_cache(maxsize=8)
def first_counts(seed: int, clusters: int, resamples: int) -> np.ndarray:
    """How often each cluster is drawn in each resample of :func:`first_draws` (read-only, ``resamples`` x
    ``clusters``): a resample's sum of per-cluster values is then one row of a matrix product."""
    import numpy as np

    drawn = first_draws(seed, clusters, resamples)
    rows = np.arange(resamples)[:, None] * clusters
    counts = np.bincount((drawn + rows).ravel(), minlength=resamples * clusters).reshape(resamples, clusters)
    counts = counts.astype(float)
    counts.flags.writeable = False
    return counts


def bootstrap_cis(
    strata_sets: Sequence[Sequence[Stratum]], seed: int = 0, resamples: int = BOOTSTRAP_RESAMPLES
) -> list[tuple[float, float]]:
    """:func:`bootstrap_ci` of each set of strata, the same numbers, many at once.

    One-stratum sets whose per-cluster sums are whole numbers (0/1 scores, say) and whose draws are
    cached are grouped by cluster count: each resample's sums for the whole group come from one matrix
    product of :func:`first_counts` (exact, as every partial sum is a whole number below 2**53) and the percentiles
    from one call, instead of a gather and a percentile per interval. Any other set takes
    :func:`bootstrap_ci`. The products are small: a caller computing many may want BLAS on one thread
    (:func:`leaderboard.site.build_site` does), as its threads cost far more than they save on a busy machine.
    """
    import numpy as np

    found: dict[int, tuple[float, float]] = {}
    groups: dict[int, list[int]] = {}
    for index, strata in enumerate(strata_sets):
        if len(strata) == 1 and resamples * strata[0].k <= CACHED_DRAWS:
            groups.setdefault(strata[0].k, []).append(index)
        else:
            found[index] = bootstrap_ci(strata, seed, resamples)
    for clusters, members in groups.items():
        strata = [strata_sets[index][0] for index in members]
        sums = np.stack([s.sums(s.d) for s in strata], axis=1)
        whole = np.all(sums == np.trunc(sums), axis=0) & (np.abs(sums).max(axis=0) * clusters < 2**53)
        for i in np.flatnonzero(~whole).tolist():
            found[members[i]] = bootstrap_ci([strata[i]], seed, resamples)
        chosen = np.flatnonzero(whole).tolist()
        if not chosen:
            continue
        counts = first_counts(seed, clusters, resamples)
        totals = counts @ sums[:, chosen]
        tail = 100 * expanded_tail(clusters)
        clustered = [i for i, member in enumerate(chosen) if strata[member].clustered]
        plain = [i for i, member in enumerate(chosen) if not strata[member].clustered]  # the mean is total / k
        bounds = np.empty((2, len(chosen)))
        if plain:
            bounds[:, plain] = whole_percentiles(totals[:, plain], float(clusters), (tail, 100 - tail))
        if clustered:
            sizes = counts @ np.stack([strata[chosen[i]].sizes for i in clustered], axis=1)
            bounds[:, clustered] = np.percentile(totals[:, clustered] / sizes, [tail, 100 - tail], axis=0)
        for member, low_value, high_value in zip(chosen, *bounds.tolist(), strict=True):
            found[members[member]] = (low_value, high_value)
    return [found[index] for index in range(len(strata_sets))]


def whole_percentiles(totals: np.ndarray, divisor: float, percents: Sequence[float]) -> np.ndarray:
    """``np.percentile(totals / divisor, percents, axis=0)`` for whole-number ``totals`` and a positive ``divisor``,
    the same numbers: each column's two order statistics are found by counting its values (a resample's total
    takes a few hundred values at most) instead of partitioning 2,000 of them, and are interpolated as numpy's
    linear method does."""
    import numpy as np

    values = totals.astype(np.int64)
    rows, columns = values.shape
    low = int(values.min())
    width = int(values.max()) - low + 1
    codes = (values - low) + np.arange(columns) * width
    cumulative = np.bincount(codes.ravel(), minlength=columns * width).reshape(columns, width).cumsum(axis=1)
    virtual = (rows - 1) * np.true_divide(np.asarray(percents, dtype=float), 100)
    previous = np.floor(virtual)
    gamma = (virtual - previous)[:, None]
    ranks = np.minimum(previous.astype(np.intp), rows - 1)

    def order_statistic(rank: np.ndarray) -> np.ndarray:  # each column's rank-th smallest total, one row a rank
        return ((cumulative[None, :, :] <= rank[:, None, None]).sum(axis=2) + low) / divisor

    below, above = order_statistic(ranks), order_statistic(np.minimum(ranks + 1, rows - 1))
    step = above - below
    return np.where(gamma >= 0.5, above - step * (1 - gamma), below + step * gamma)


@cache
def expanded_tail(clusters: int) -> float:
    """The tail share of the expanded percentile interval (Hesterberg 2015) for ``clusters`` resampled units.

    A percentile bootstrap is too narrow for few units (its variance is off by (k−1)/k and it
    ignores that the spread is estimated); the expanded interval takes the percentiles at
    Φ(−√(k/(k−1))·t₀.₉₇₅,ₖ₋₁), which tends to 2.5 % as k grows.
    """
    from scipy.special import ndtr, stdtrit  # Φ and Student's t quantile, without scipy.stats' import (0.7 s)

    if clusters < 2:
        return 0.025
    return float(ndtr(-math.sqrt(clusters / (clusters - 1)) * stdtrit(clusters - 1, 0.975)))


@cache
def binomial_half_cdf(k: int, n: int) -> float:
    """P(X <= k) for X ~ Binomial(n, 1/2) and k <= n / 2, without scipy (whose import dominated a small report).

    The terms C(n, i) / 2^n are summed from i = k down, scaled by the largest (its logarithm from
    ``lgamma``), until the rest no longer changes the sum; relative error about 1e-12 at n = 1,000.
    """
    log_largest = math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1) - n * math.log(2)
    total, term = 0.0, 1.0
    for i in range(k, -1, -1):
        total += term
        term *= i / (n - i + 1)  # C(n, i - 1) / C(n, i)
        if term < total * 1e-17:
            break
    return math.exp(log_largest) * total


def mcnemar_exact(a: np.ndarray, b: np.ndarray) -> float:
    """Two-sided exact McNemar p-value of paired 0/1 values: a binomial test of the discordant pairs at 1/2."""
    return mcnemar_from_counts(int(((a == 1) & (b == 0)).sum()), int(((a == 0) & (b == 1)).sum()))


def mcnemar_from_counts(only_a: int, only_b: int) -> float:
    """Two-sided exact McNemar p-value from the discordant counts (items only A got right, only B got right)."""
    discordant = only_a + only_b
    if discordant == 0:
        return 1.0
    return min(1.0, 2 * binomial_half_cdf(min(only_a, only_b), discordant))


def sign_flip(weights: np.ndarray, seed: int = 0, draws: int = SIGN_FLIPS) -> float:
    """Two-sided p-value of ``sum(weights)`` against random signs on each weight (a cluster's difference).

    Exact (every sign pattern) for up to :data:`EXACT_FLIP_CLUSTERS` nonzero weights; otherwise
    ``(1 + hits) / (1 + draws)`` over seeded draws, which never reports 0.
    """
    import numpy as np

    nonzero = np.sort(weights[weights != 0])
    observed = abs(float(nonzero.sum()))
    if nonzero.size == 0:
        return 1.0
    tolerance = 1e-12 * float(np.abs(nonzero).sum())
    if nonzero.size <= EXACT_FLIP_CLUSTERS:
        patterns = ((np.arange(2**nonzero.size)[:, None] >> np.arange(nonzero.size)) & 1) * 2 - 1
        return float((np.abs(patterns @ nonzero) >= observed - tolerance).mean())
    rng = np.random.default_rng(seed)
    hits = 0
    rows = max(1, 4_000_000 // nonzero.size)
    for start in range(0, draws, rows):
        signs = rng.integers(0, 2, size=(min(rows, draws - start), nonzero.size)) * 2 - 1
        hits += int((np.abs(signs @ nonzero) >= observed - tolerance).sum())
    return (1 + hits) / (1 + draws)


def choose_test(strata: Sequence[Stratum]) -> Test:
    """Exact McNemar for one unclustered stratum of 0/1 values, a sign-flip test otherwise."""
    if len(strata) == 1 and strata[0].binary and not strata[0].clustered:
        return "mcnemar-exact"
    return "sign-flip"


def p_value(strata: Sequence[Stratum], test: Test, seed: int = 0) -> float:
    """The two-sided p-value of "no difference" by ``test``."""
    if test == "mcnemar-exact":
        return mcnemar_exact(strata[0].a, strata[0].b)
    return sign_flip(_weights(strata), seed=seed)


def minimum_detectable_effect(strata: Sequence[Stratum]) -> float | None:
    """The difference a two-sided 5 % test detects with 80 % power at this item count and discordance.

    The null standard error is the root of the summed squared cluster weights (the observed
    per-item differences taken around 0); None when no item differs, so no spread is known.
    """
    weights = _weights(strata)
    null_se = math.sqrt(float((weights**2).sum()))
    return (Z95 + Z80) * null_se if null_se > 0 else None


def items_needed(n: int, diff: float, mde: float | None) -> int | None:
    """How many items (at this discordance) would detect ``diff`` with 80 % power; None when it is 0 or unknown."""
    if mde is None or diff == 0:
        return None
    return math.ceil(n * (mde / abs(diff)) ** 2)


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjustment (family-wise error), in the order given."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted = [1.0] * len(p_values)
    running = 0.0
    for rank, index in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[index]))
        adjusted[index] = running
    return adjusted


def benjamini_hochberg(p_values: Sequence[float]) -> list[float]:
    """Benjamini–Hochberg adjusted p-values (false discovery rate), in the order given."""
    from scipy.stats import false_discovery_control

    if not p_values:
        return []
    return [float(p) for p in false_discovery_control(list(p_values), method="bh")]
