"""Confidence intervals: Wilson against known values, bootstrap determinism and coverage of the mean."""

from __future__ import annotations

import pytest

from harness.stats import bootstrap_interval, mean_metric, proportion_metric, ratio_metric, wilson_interval


def test_wilson_matches_reference_values() -> None:
    low, high = wilson_interval(8, 10)
    assert low == pytest.approx(0.4902, abs=1e-4) and high == pytest.approx(0.9433, abs=1e-4)
    assert wilson_interval(0, 10)[0] == pytest.approx(0.0, abs=1e-12)
    assert wilson_interval(10, 10)[1] == pytest.approx(1.0, abs=1e-12)
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_mean_metric_picks_the_interval_by_kind() -> None:
    binary = mean_metric([1.0, 0.0, 1.0, 1.0])
    assert binary.method == "wilson" and binary.n == 4 and binary.value == 0.75
    graded = mean_metric([0.5, 0.25, 1.0, 0.75], seed=1)
    assert graded.method == "bootstrap" and graded.ci_low <= 0.625 <= graded.ci_high
    assert mean_metric([]).value is None and mean_metric([]).n == 0


def test_bootstrap_is_deterministic_for_a_seed() -> None:
    values = [0.1 * i for i in range(30)]
    assert bootstrap_interval(values, seed=7) == bootstrap_interval(values, seed=7)
    assert bootstrap_interval(values, seed=7) != bootstrap_interval(values, seed=8)


def test_ratio_metric() -> None:
    metric = ratio_metric([1, 2, 0], [2, 2, 1], seed=0)
    assert metric.value == pytest.approx(3 / 5) and metric.ci_low <= metric.value <= metric.ci_high
    assert ratio_metric([], []).value is None


def test_intervals_do_not_depend_on_the_order_of_the_log() -> None:
    values = [0.1 * (i % 7) for i in range(40)]
    assert bootstrap_interval(values, seed=3) == bootstrap_interval(list(reversed(values)), seed=3)
    num, den = [1, 2, 0, 3], [2, 2, 1, 4]
    assert ratio_metric(num, den, seed=1) == ratio_metric(num[::-1], den[::-1], seed=1)


def test_proportion_metric_is_the_wilson_share_mean_metric_gives_for_zero_one_values() -> None:
    assert proportion_metric(3, 10) == mean_metric([1.0] * 3 + [0.0] * 7)
    assert proportion_metric(3, 10).method == "wilson" and proportion_metric(3, 10).value == 0.3
    assert proportion_metric(0, 0).method == "empty" and proportion_metric(0, 0).value is None
    assert proportion_metric(5, 5).ci_high == 1.0


def test_a_ratio_of_zero_one_counts_is_a_share_with_the_wilson_interval() -> None:
    """ConFiQA's mr = po / (pc + po): per sample both are 0 or 1, so it is a share (issue 38 item 5)."""
    none_memorised = ratio_metric([0, 0, 0, 0], [1, 1, 0, 1])
    assert none_memorised.method == "wilson" and none_memorised.n == 3
    assert (none_memorised.ci_low, none_memorised.ci_high) == wilson_interval(0, 3) != (0.0, 0.0)
    assert ratio_metric([1, 0], [2, 1]).method == "bootstrap-ratio"  # a count above 1: a ratio of sums
