"""Paired statistics (issue 39): each checked against an independent computation, and the CI's coverage."""

from __future__ import annotations

import math
import random

import numpy as np
import pytest
from scipy.stats import binom, binomtest, norm, t

from harness.paired import (
    Item,
    Stratum,
    benjamini_hochberg,
    binomial_half_cdf,
    bootstrap_ci,
    bootstrap_cis,
    choose_test,
    difference,
    expanded_tail,
    first_draws,
    holm,
    mcnemar_exact,
    minimum_detectable_effect,
    p_value,
    se_paired,
    se_unpaired,
    sign_flip,
    whole_percentiles,
)


def _items(a, b, clusters=None) -> list[Item]:
    return [
        Item(f"i{i:05d}", None if clusters is None else f"c{clusters[i]}", float(x), float(y))
        for i, (x, y) in enumerate(zip(a, b, strict=True))
    ]


@pytest.mark.parametrize("only_a, only_b, same", [(0, 30, 170), (8, 20, 172), (13, 13, 0), (1, 0, 5), (40, 3, 57)])
def test_mcnemar_is_scipys_exact_binomial_test_of_the_discordant_pairs(only_a, only_b, same) -> None:
    a = [1] * only_a + [0] * only_b + [1] * same
    b = [0] * only_a + [1] * only_b + [1] * same
    expected = binomtest(only_a, only_a + only_b, 0.5).pvalue
    assert mcnemar_exact(np.asarray(a, float), np.asarray(b, float)) == pytest.approx(expected, rel=1e-9)


@pytest.mark.parametrize("n", [1, 2, 7, 40, 333, 2_000, 40_001, 250_000])
def test_the_binomial_tail_is_scipys_from_the_first_term_to_the_middle(n: int) -> None:
    middle = n // 2
    for k in sorted({0, 1, n // 10, middle - int(3 * math.sqrt(n)), middle - 1, middle} & set(range(middle + 1))):
        expected = float(binom.cdf(k, n, 0.5))
        assert binomial_half_cdf(k, n) == pytest.approx(expected, rel=1e-9, abs=1e-300), (k, n)


def test_the_expanded_tail_is_hesterbergs_formula_and_tends_to_two_and_a_half_percent() -> None:
    tails = [expanded_tail(k) for k in (2, 3, 5, 10, 40, 1000, 100_000)]
    for k, tail in zip((2, 3, 5, 10, 40, 1000, 100_000), tails, strict=True):
        assert tail == pytest.approx(float(norm.cdf(-math.sqrt(k / (k - 1)) * t.ppf(0.975, k - 1))), rel=1e-12)
    assert tails == sorted(tails) and 0.0249 < tails[-1] < 0.025 and expanded_tail(1) == 0.025


@pytest.mark.parametrize("seed", [0, 3])
def test_a_one_stratum_interval_from_the_shared_draws_is_the_fresh_generators(seed: int) -> None:
    rng = random.Random(seed)
    for size in (2, 17, 50, 300):
        stratum = Stratum(_items([rng.random() < 0.5 for _ in range(size)], [rng.random() < 0.6 for _ in range(size)]))
        drawn = np.random.default_rng(seed).integers(0, size, size=(2000, size))
        means = stratum.sums(stratum.d)[drawn].sum(axis=1) / size
        tail = 100 * expanded_tail(size)
        expected = tuple(float(x) for x in np.percentile(means, [tail, 100 - tail]))
        assert bootstrap_ci([stratum], seed=seed) == bootstrap_ci([stratum], seed=seed) == expected
    with pytest.raises(ValueError, match="read-only"):
        first_draws(seed, 50, 2000)[0, 0] = 1


def test_intervals_computed_together_are_each_one_computed_alone() -> None:
    """0/1 scores (the matrix-product path), halves, scores on a 0-5 scale, clustered items, several strata
    and a stratum too large for the cached draws: every interval exactly as :func:`bootstrap_ci` gives it."""
    rng = random.Random(7)
    sets: list[list[Stratum]] = []
    for size in (3, 17, 50, 50, 50, 300):
        for scale in (1, 2, 5):
            a = [rng.randint(0, scale) / (2 if scale == 2 else 1) for _ in range(size)]
            b = [rng.randint(0, scale) / (2 if scale == 2 else 1) for _ in range(size)]
            sets.append([Stratum(_items(a, b))])
            sets.append([Stratum(_items(a, b, [i % 12 for i in range(size)]))])
    sets.append([Stratum(_items([1, 0, 1, 1] * 3, [0, 0, 1, 1] * 3)), Stratum(_items([1, 0] * 9, [1, 1] * 9))])
    sets.append([Stratum(_items([rng.random() < 0.5 for _ in range(600)], [rng.random() < 0.5 for _ in range(600)]))])
    for seed in (0, 5):
        assert bootstrap_cis(sets, seed=seed) == [bootstrap_ci(strata, seed=seed) for strata in sets]
    assert bootstrap_cis([]) == []


def test_an_unclustered_stratum_from_values_is_the_one_from_items() -> None:
    rng = random.Random(11)
    a, b = [rng.random() < 0.5 for _ in range(40)], [rng.random() < 0.7 for _ in range(40)]
    built, direct = Stratum(_items(a, b)), Stratum.unclustered(a, b)
    for name in ("n", "k", "declared", "clustered"):
        assert getattr(direct, name) == getattr(built, name), name
    for name in ("a", "b", "codes", "sizes"):
        assert np.array_equal(getattr(direct, name), getattr(built, name)), name
    assert bootstrap_ci([direct]) == bootstrap_ci([built]) and p_value([direct], "mcnemar-exact") == p_value(
        [built], "mcnemar-exact"
    )


@pytest.mark.parametrize("spread", [0, 1, 7, 300])
def test_percentiles_of_whole_numbers_by_counting_are_numpys(spread: int) -> None:
    rng = np.random.default_rng(spread)
    totals = rng.integers(-spread, spread + 1, size=(2000, 13)).astype(float)
    for divisor in (1.0, 3.0, 50.0):
        for percents in ((2.5, 97.5), (0.0, 100.0), (50.0, 2.4871), (99.99, 0.01)):
            expected = np.percentile(totals / divisor, percents, axis=0)
            assert np.array_equal(whole_percentiles(totals, divisor, percents), expected)
    assert np.array_equal(
        whole_percentiles(totals[:1], 2.0, (10.0, 90.0)), np.percentile(totals[:1] / 2, [10, 90], axis=0)
    )


def test_no_discordant_pair_gives_p_one_and_no_detectable_effect() -> None:
    stratum = Stratum(_items([1, 0, 1, 1], [1, 0, 1, 1]))
    assert mcnemar_exact(stratum.a, stratum.b) == 1.0
    assert sign_flip(np.zeros(4)) == 1.0
    assert difference([stratum]) == 0.0 and minimum_detectable_effect([stratum]) is None


def _direct_percentiles(d: np.ndarray, clusters: np.ndarray, resamples: int, seed: int) -> tuple[float, float]:
    """A bootstrap written out plainly: draw clusters with replacement, pool their items, take the mean."""
    rng = random.Random(seed)
    members = {c: d[clusters == c] for c in np.unique(clusters)}
    keys = sorted(members)
    means = []
    for _ in range(resamples):
        drawn = [members[rng.choice(keys)] for _ in keys]
        means.append(float(np.concatenate(drawn).mean()))
    k = len(keys)
    tail = norm.cdf(-math.sqrt(k / (k - 1)) * t.ppf(0.975, k - 1))
    low, high = np.quantile(means, [tail, 1 - tail])
    return float(low), float(high)


@pytest.mark.parametrize("clustered", [False, True])
def test_the_bootstrap_ci_agrees_with_a_direct_bootstrap(clustered: bool) -> None:
    rng = np.random.default_rng(7)
    n = 200
    clusters = np.repeat(np.arange(40), 5) if clustered else np.arange(n)
    a = (rng.random(n) < 0.55).astype(float)
    b = np.where(rng.random(n) < 0.8, a, 1 - a)
    ours = bootstrap_ci([Stratum(_items(a, b, clusters if clustered else None))], seed=3)
    direct = _direct_percentiles(b - a, clusters, resamples=4000, seed=11)
    assert ours == pytest.approx(direct, abs=0.012)


def _simulated(rng: np.random.Generator, clustered: bool) -> list[Item]:
    """Paired 0/1 outcomes of two systems on 200 items (40 clusters of 5 with a shared difficulty, or none)."""
    n = 200
    difficulty = rng.normal(0, 1, n) + (np.repeat(rng.normal(0, 1, 40), 5) if clustered else 0)
    u = rng.random(n)
    a = (u < 1 / (1 + np.exp(-difficulty))).astype(float)
    b = (u < 1 / (1 + np.exp(-(difficulty + 0.5)))).astype(float)
    return _items(a, b, np.repeat(np.arange(40), 5) if clustered else None)


def _true_difference(clustered: bool) -> float:
    z = np.random.default_rng(99).normal(0, math.sqrt(2) if clustered else 1, 4_000_000)
    return float(np.mean(1 / (1 + np.exp(-(z + 0.5))) - 1 / (1 + np.exp(-z))))


@pytest.mark.parametrize("clustered", [False, True])
def test_the_95_ci_covers_a_known_difference_in_93_to_97_percent_of_1000_repetitions(clustered: bool) -> None:
    truth = _true_difference(clustered)
    covered = 0
    for repetition in range(1000):
        items = _simulated(np.random.default_rng(1000 + repetition), clustered)
        low, high = bootstrap_ci([Stratum(items)], seed=repetition)
        covered += low <= truth <= high
    assert 930 <= covered <= 970, covered


def test_results_do_not_depend_on_the_order_of_the_items() -> None:
    items = _simulated(np.random.default_rng(5), clustered=True)
    shuffled = list(items)
    random.Random(1).shuffle(shuffled)
    for strata in ([Stratum(items)], [Stratum(shuffled)]):
        assert bootstrap_ci(strata, seed=2) == bootstrap_ci([Stratum(items)], seed=2)
        assert p_value(strata, "sign-flip", seed=2) == p_value([Stratum(items)], "sign-flip", seed=2)


def test_paired_se_is_the_sd_of_the_differences_and_smaller_than_unpaired_for_correlated_scores() -> None:
    rng = np.random.default_rng(4)
    a = (rng.random(300) < 0.6).astype(float)
    b = np.where(rng.random(300) < 0.9, a, 1 - a)
    strata = [Stratum(_items(a, b))]
    assert se_paired(strata) == pytest.approx(np.std(b - a, ddof=1) / math.sqrt(300))
    assert se_unpaired(strata) == pytest.approx(math.hypot(np.std(a, ddof=1), np.std(b, ddof=1)) / math.sqrt(300))
    assert se_paired(strata) < se_unpaired(strata) / 2


def test_the_mde_follows_from_the_discordant_pairs() -> None:
    a = [1] * 20 + [0] * 10 + [1] * 170
    b = [0] * 20 + [1] * 10 + [1] * 170
    mde = minimum_detectable_effect([Stratum(_items(a, b))])
    assert mde == pytest.approx((norm.ppf(0.975) + norm.ppf(0.8)) * math.sqrt(30) / 200)


def test_the_sign_flip_test_is_exact_for_few_clusters() -> None:
    weights = np.asarray([0.3, 0.1, -0.05, 0.2])
    patterns = [np.asarray(s) for s in np.ndindex(2, 2, 2, 2)]
    expected = np.mean([abs(((p * 2 - 1) * weights).sum()) >= abs(weights.sum()) - 1e-12 for p in patterns])
    assert sign_flip(weights) == expected
    drawn = sign_flip(np.full(40, 0.01), seed=1)
    assert 0 < drawn < 1e-3  # all 40 clusters one way: p is about 2**-39, reported as at least 1/10,001


def test_holm_and_benjamini_hochberg_match_their_definitions() -> None:
    p = [0.01, 0.04, 0.03, 0.005]
    assert holm(p) == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert benjamini_hochberg(p) == pytest.approx([0.02, 0.04, 0.04, 0.02])


def test_clusters_are_resampled_only_when_enough_are_declared() -> None:
    a, b = [1, 0] * 50, [1, 1] * 50
    few = Stratum(_items(a, b, [i % 4 for i in range(100)]))
    many = Stratum(_items(a, b, [i % 20 for i in range(100)]))
    assert (few.declared, few.clustered, few.k) == (4, False, 100)
    assert (many.declared, many.clustered, many.k) == (20, True, 20)
    assert choose_test([few]) == "mcnemar-exact" and choose_test([many]) == "sign-flip"
