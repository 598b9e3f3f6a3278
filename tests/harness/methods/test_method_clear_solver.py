"""The CLEAR λ solver: equal marginals, budget met, abandonment by surplus, brute-force agreement, streams."""

from __future__ import annotations

import numpy as np
import pytest

from harness.methods.clear.baselines import proportional, uniform
from harness.methods.clear.calibrate import fit_surge
from harness.methods.clear.solver import Curves, allocate, at_price
from harness.methods.clear.stream import allocate_stream
from harness.methods.clear.utility import SaturatingExponential, ShiftedSurge, UtilityFamily

SURGE = ShiftedSurge.from_ceiling(0.9, 20.0)


def brute_force(curves: Curves, family: UtilityFamily, budget: int) -> float:
    """The exact best whole-token allocation by dynamic programming over queries."""
    grid = np.arange(budget + 1)
    best = np.zeros(budget + 1)
    for tau in curves.taus:
        gains = family.utility(grid - tau)
        best = np.array([np.max(gains[: b + 1] + best[b::-1]) for b in range(budget + 1)])
    return float(best[budget])


def test_surge_formulas_agree_with_each_other() -> None:
    x = np.linspace(0.5, 200, 20_000)
    numeric = np.gradient(SURGE.utility(x), x)
    assert np.allclose(numeric[2:-2], SURGE.marginal(x)[2:-2], rtol=1e-3)
    for lam in np.geomspace(SURGE.max_marginal() * 1e-6, SURGE.max_marginal() * 0.999, 25):
        excess = float(SURGE.excess_at_price(lam))
        assert excess >= 1 / SURGE.beta - 1e-9 and SURGE.marginal(excess) == pytest.approx(lam, rel=1e-9)
    assert SURGE.excess_at_price(SURGE.max_marginal() * 1.01) == 0.0
    assert SURGE.utility(np.array([-5.0, 0.0]))[0] == 0.0 and SURGE.utility(1e9) == pytest.approx(0.9)


@pytest.mark.parametrize("seed", range(6))
def test_funded_queries_share_the_marginal_utility_and_the_budget_is_met(seed: int) -> None:
    rng = np.random.default_rng(seed)
    taus = rng.lognormal(np.log(300), 0.8, 200)
    family = ShiftedSurge.from_ceiling(0.9, 150.0)
    curves = Curves.of(taus, family)
    budget = int(rng.integers(20_000, 120_000))
    result = allocate(curves, budget)
    priced = result.priced
    assert int(result.budgets.sum()) <= budget and budget - int(result.budgets.sum()) == result.leftover == 0
    assert priced.total <= budget
    funded = priced.funded
    assert funded.any()
    marginals = curves.marginal(priced.budgets)[funded]
    assert np.allclose(marginals, priced.lam, rtol=1e-6)
    assert np.array_equal(funded, priced.surplus > 0)
    assert np.all(priced.budgets[~funded] == 0)
    assert at_price(curves, priced.lam * (1 - 1e-6)).total > budget or funded.all()


@pytest.mark.parametrize("seed", range(40))
def test_matches_the_brute_force_optimum_on_small_cases(seed: int) -> None:
    rng = np.random.default_rng(100 + seed)
    taus = rng.uniform(0, 80, int(rng.integers(2, 6)))
    budget = int(rng.integers(10, 260))
    curves = Curves.of(taus, SURGE)
    result = allocate(curves, budget)
    assert int(result.budgets.sum()) <= budget
    assert curves.utility(result.budgets).sum() >= 0.995 * brute_force(curves, SURGE, budget) - 1e-9


def test_price_rule_alone_can_miss_what_the_repair_recovers() -> None:
    curves = Curves.of([58.4, 43.5, 74.8, 65.3], SURGE)
    optimum = brute_force(curves, SURGE, 185)
    unrepaired = allocate(curves, 185, repair_width=0)
    repaired = allocate(curves, 185)
    assert curves.utility(unrepaired.budgets).sum() < 0.85 * optimum
    assert curves.utility(repaired.budgets).sum() >= 0.995 * optimum and repaired.repaired >= 1


def test_pluggable_family_and_per_query_families() -> None:
    exponential = SaturatingExponential(0.8, 1 / 100)
    curves = Curves.of([10, 50, 90], [exponential, SURGE, exponential])
    result = allocate(curves, 400)
    assert int(result.budgets.sum()) == 400 and curves.utility(result.budgets).sum() > 0
    assert curves.utility(result.budgets).sum() >= 0.99 * max(
        curves.utility(np.array([a, b, 400 - a - b])).sum() for a in range(0, 401, 10) for b in range(0, 401 - a, 10)
    )


def test_zero_budget_and_empty_batch() -> None:
    assert allocate(Curves.of([10.0, 20.0], SURGE), 0).budgets.tolist() == [0, 0]
    assert allocate(Curves.of([], SURGE), 100).budgets.tolist() == []
    with pytest.raises(ValueError):
        Curves.of([1.0, float("nan")], SURGE)
    with pytest.raises(ValueError):
        allocate(Curves.of([1.0], SURGE), -1)


def test_clear_beats_uniform_at_scarce_budgets_and_nears_the_oracle_with_noisy_taus() -> None:
    rng = np.random.default_rng(7)
    truth = ShiftedSurge.from_ceiling(0.92, 400.0)
    taus = rng.lognormal(np.log(1500), 0.9, 400)
    predicted = taus * np.exp(rng.normal(0, 0.2, len(taus)))
    true_curves, seen = Curves.of(taus, truth), Curves.of(predicted, truth)
    budget = 1000 * len(taus)
    clear = true_curves.utility(allocate(seen, budget).budgets).mean()
    oracle = true_curves.utility(allocate(true_curves, budget).budgets).mean()
    assert clear >= 2 * true_curves.utility(uniform(seen, budget)).mean()
    assert clear >= 0.95 * oracle and clear > true_curves.utility(proportional(seen, budget)).mean()


def test_stream_carries_the_price_and_never_overspends() -> None:
    rng = np.random.default_rng(3)
    family = ShiftedSurge.from_ceiling(0.9, 200.0)
    taus = rng.lognormal(np.log(600), 0.7, 600)
    windows = [Curves.of(taus[i : i + 50], family) for i in range(0, 600, 50)]
    budget = 500 * 600
    streamed = allocate_stream(windows, budget)
    whole = allocate(Curves.of(taus, family), budget)
    assert int(streamed.budgets.sum()) <= budget and len(streamed.prices) == 12
    assert max(streamed.prices) / min(streamed.prices) < 2.0
    full = Curves.of(taus, family)
    assert full.utility(streamed.budgets).sum() >= 0.95 * full.utility(whole.budgets).sum()


def test_calibration_recovers_the_shared_parameters() -> None:
    rng = np.random.default_rng(11)
    truth = ShiftedSurge.from_ceiling(0.85, 300.0)
    taus = rng.uniform(100, 2000, 3000)
    budgets = taus + rng.uniform(-500, 2500, len(taus))
    outcomes = (rng.random(len(taus)) < truth.utility(budgets - taus)).astype(float)
    fitted = fit_surge(budgets, taus, outcomes)
    assert fitted.ceiling == pytest.approx(0.85, abs=0.04) and 1 / fitted.beta == pytest.approx(300, rel=0.1)
