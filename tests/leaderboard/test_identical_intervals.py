"""Issue 19 item 5: identical 0/n results get the same CI method and interval for every model.

A 0/5 of wrong answers and a 0/5 of unscored answers (both ``accuracy`` 0 over n=5, the harness's
Wilson interval) must get the same family and overall interval: before, the unscored one fell back
to normal draws around the Wilson spread ([0, 0.22]) while the wrong one was resampled ([0, 0]).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from harness.stats import mean_metric
from harness.types import MetricValue
from leaderboard.aggregate import overall_rows, submission_id, task_rows
from leaderboard.submission import build_submission

ZERO_OF_FIVE = mean_metric([0.0] * 5)


def _board(make_run: Callable[..., Path], half: list[tuple[float | None, str]]) -> list[dict[str, Any]]:
    """Three submissions on one task: 0/5 wrong, 0/5 unscored, and ``half`` (a control that differs)."""
    wrong = make_run("wrong", model="m/wrong", tasks={"demo/arith": [(0.0, "scored")] * 5})
    unscored = make_run(
        "unscored",
        model="m/unscored",
        tasks={"demo/arith": [(None, "unscored")] * 5},
        extra_metrics={"demo/arith": {"accuracy": ZERO_OF_FIVE}},
    )
    other = make_run("other", model="m/other", tasks={"demo/arith": half})
    return [build_submission([wrong]), build_submission([unscored]), build_submission([other])]


def test_zero_of_n_wrong_and_unscored_get_one_interval(make_run: Callable[..., Path]) -> None:
    board = _board(make_run, [(1.0, "scored"), (0.0, "scored"), (None, "unscored"), (1.0, "scored"), (0.0, "scored")])
    unscored_metric = board[1]["tasks"]["demo/arith"]["metrics"]["accuracy"]
    assert (
        MetricValue(**unscored_metric)
        == ZERO_OF_FIVE
        == MetricValue(**board[0]["tasks"]["demo/arith"]["metrics"]["accuracy"])
    )
    families, overall = overall_rows(board, task_rows(board))
    rows = overall.set_index("submission")
    wrong, unscored, other = (rows.loc[submission_id(b)] for b in board)
    assert wrong["ci_method"] == unscored["ci_method"] == "bootstrap"
    assert (wrong["ci_low"], wrong["ci_high"]) == (unscored["ci_low"], unscored["ci_high"]) == (0.0, 0.0)
    fam = families.set_index("submission")
    assert fam.loc[submission_id(board[0]), ["ci_low", "ci_high"]].tolist() == pytest.approx(
        fam.loc[submission_id(board[1]), ["ci_low", "ci_high"]].tolist()
    )
    # the control really is resampled from its samples, not given the same interval
    assert other["ci_method"] == "bootstrap" and other["ci_low"] < other["score"] < other["ci_high"]


def test_a_metric_the_samples_do_not_explain_still_falls_back_to_its_interval(make_run: Callable[..., Path]) -> None:
    board = _board(make_run, [(1.0, "scored")] * 5)
    board[2]["tasks"]["demo/arith"]["metrics"]["accuracy"] = {**ZERO_OF_FIVE.model_dump(mode="json"), "value": 0.3}
    overall = overall_rows(board, task_rows(board))[1].set_index("submission")
    assert overall.loc[submission_id(board[2]), "ci_method"] == "normal"
