"""Aggregation: task scores, family and macro means, bootstrap CIs and rank bands."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from conftest import binary

from harness.stats import wilson_interval
from harness.types import MetricValue
from leaderboard.aggregate import AGGREGATE_CI_METHOD, band_label, overall_rows, rank_bands, submission_id, task_rows
from leaderboard.metrics import higher_is_better, metric_range, normalised, primary_metric
from leaderboard.submission import build_submission


def test_metric_rules() -> None:
    assert primary_metric(["f1", "accuracy"]) == "accuracy"
    assert primary_metric(["mr", "po"]) == "mr"
    assert not higher_is_better("cvss_mad") and not higher_is_better("mad") and higher_is_better("f1")
    assert metric_range("cvss_mad") == (0.0, 10.0)
    assert metric_range("pass@1") == (0.0, 1.0)
    assert metric_range("weird", "wilson") == (0.0, 1.0)
    assert metric_range("abs_error") == (0.0, None)
    assert normalised(2.5, "cvss_mad") == pytest.approx(0.75)
    assert normalised(3.0, "abs_error") is None
    assert normalised(0.4, "accuracy") == pytest.approx(0.4)
    with pytest.raises(ValueError):
        primary_metric([])


@pytest.fixture
def board(make_run: Callable[..., Path]) -> list[dict[str, Any]]:
    """Two submissions over two families (one with two tasks) and a CVSS task scored by MAD."""
    mad = MetricValue(value=2.0, n=20, ci_low=1.5, ci_high=2.6, method="bootstrap")
    strong = make_run(
        "strong",
        model="m/strong",
        tasks={
            "demo/a": binary(18, 20),
            "demo/b": binary(16, 20),
            "cyber/mcq": binary(10, 20),
            "cyber/vsp": [(0.5, "scored")] * 20,
        },
        extra_metrics={"cyber/vsp": {"cvss_mad": mad}},
    )
    weak = make_run(
        "weak", model="m/weak", tasks={"demo/a": binary(2, 20), "demo/b": binary(4, 20), "cyber/mcq": binary(9, 20)}
    )
    subs = [build_submission([strong]), build_submission([weak])]
    vsp = subs[0]["tasks"]["cyber/vsp"]
    del vsp["metrics"]["accuracy"]
    vsp["primary_metric"], vsp["higher_is_better"] = "cvss_mad", False
    return subs


def test_macro_mean_over_families(board: list[dict[str, Any]]) -> None:
    tasks = task_rows(board)
    families, overall = overall_rows(board, tasks)
    strong = overall.set_index("submission").loc[submission_id(board[0])]
    demo = (0.9 + 0.8) / 2
    cyber = (0.5 + (10 - 2.0) / 10) / 2
    assert strong["score"] == pytest.approx((demo + cyber) / 2)
    assert strong["tasks"] == 4 and strong["families"] == 2
    assert strong["ci_method"] == AGGREGATE_CI_METHOD
    assert strong["ci_low"] < strong["score"] < strong["ci_high"]
    weak = overall.set_index("submission").loc[submission_id(board[1])]
    assert weak["ci_method"] == AGGREGATE_CI_METHOD
    fam = families.set_index(["submission", "family"])
    assert fam.loc[(submission_id(board[1]), "demo"), "score"] == pytest.approx(0.15)
    assert strong["tokens"] == 4 * 20 * 120


def test_perfect_and_null_scores_lie_inside_their_aggregate_interval(make_run: Callable[..., Path]) -> None:
    """A macro mean of perfect small samples is 1.0 and its interval reaches down from 1.0, never past it
    (seeded draws that followed each task's one-sided interval put the mean's interval below the mean)."""
    # six families: the old draws put all six at 1.0 together in 1/64 of draws, under the 2.5% tail
    tasks = dict.fromkeys(("demo/a", "cyber/mcq", "confiqa/qa", "longcot/mini", "coins/humaneval", "tau2/mock"), 3)
    runs = {
        name: make_run(name, model=f"m/{name}", tasks={t: binary(correct * n, n) for t, n in tasks.items()})
        for name, correct in (("perfect", 1), ("null", 0))
    }
    board = [build_submission([run]) for run in runs.values()]
    overall = overall_rows(board, task_rows(board))[1].set_index("submission")
    perfect, null = (overall.loc[submission_id(data)] for data in board)
    assert perfect["score"] == 1.0 and null["score"] == 0.0
    assert perfect["ci_low"] < 1.0 == perfect["ci_high"]
    assert null["ci_low"] == 0.0 < null["ci_high"]


def test_mover_has_a_lone_part_s_own_interval_and_adds_widths_in_quadrature() -> None:
    import numpy as np

    from leaderboard.aggregate import mover_interval

    assert mover_interval(np.array([0.8]), np.array([0.5]), np.array([0.9])) == pytest.approx((0.5, 0.9))
    # two parts at 1.0, Wilson at n=3 reaches 0.4385 below: the mean moves down by sqrt(2)·(0.5615/2)
    low, high = wilson_interval(3, 3)
    got = mover_interval(np.array([1.0, 1.0]), np.array([low, low]), np.array([high, high]))
    assert got == pytest.approx((1.0 - math.sqrt(2) * (1.0 - low) / 2, 1.0))
    # a part without a finite interval adds no width; the result stays on the 0..1 scale
    assert mover_interval(np.array([0.0, 0.0]), np.array([np.nan, 0.0]), np.array([np.nan, 0.9])) == pytest.approx(
        (0.0, 0.45)
    )


def test_rank_bands_share_ranks_when_cis_overlap() -> None:
    score = pd.Series([0.9, 0.85, 0.5, None, 0.1])
    low = pd.Series([0.8, 0.7, 0.45, None, 0.05])
    high = pd.Series([0.95, 0.9, 0.55, None, 0.2])
    bands = rank_bands(score, low, high)
    labels = [band_label(b, w) for b, w in zip(bands["rank_best"], bands["rank_worst"], strict=True)]
    assert labels == ["1–2", "1–2", "3", "", "4"]


def test_unnormalisable_metric_stays_out_of_the_means(board: list[dict[str, Any]]) -> None:
    vsp = board[0]["tasks"]["cyber/vsp"]
    vsp["metrics"] = {"abs_error": vsp["metrics"]["cvss_mad"]}
    vsp["primary_metric"] = "abs_error"
    tasks = task_rows(board)
    assert math.isnan(tasks.set_index(["submission", "task"]).loc[(submission_id(board[0]), "cyber/vsp"), "score"])
    overall = overall_rows(board, tasks)[1].set_index("submission")
    assert overall.loc[submission_id(board[0]), "tasks"] == 3
    assert overall.loc[submission_id(board[0]), "all_tasks"] == 4


def test_generated_tasks_belong_to_their_family() -> None:
    from leaderboard.metrics import family_of

    assert [
        family_of(t) for t in ("confiqa-gen/qa", "tau2-synth/library", "longcot/mini", "cyber-gen/cvss", "-gen/x")
    ] == ["confiqa", "tau2", "longcot", "cyber", "-gen"]
