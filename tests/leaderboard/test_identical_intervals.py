"""Issue 19 item 5: identical 0/n results get the same CI method and interval for every model.

A 0/5 of wrong answers and a 0/5 of unscored answers (both ``accuracy`` 0 over n=5, the harness's
Wilson interval) must get the same family and overall interval.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from harness.stats import mean_metric
from harness.types import MetricValue
from leaderboard.aggregate import AGGREGATE_CI_METHOD, overall_rows, submission_id, task_rows
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
    assert wrong["ci_method"] == unscored["ci_method"] == AGGREGATE_CI_METHOD
    assert (wrong["ci_low"], wrong["ci_high"]) == (unscored["ci_low"], unscored["ci_high"])
    assert (wrong["ci_low"], wrong["ci_high"]) == (ZERO_OF_FIVE.ci_low, ZERO_OF_FIVE.ci_high)
    fam = families.set_index("submission")
    assert fam.loc[submission_id(board[0]), ["ci_low", "ci_high"]].tolist() == pytest.approx(
        fam.loc[submission_id(board[1]), ["ci_low", "ci_high"]].tolist()
    )
    # the control has its own, different interval around its own score
    assert other["ci_low"] < other["score"] < other["ci_high"] and other["ci_low"] > wrong["ci_low"]
