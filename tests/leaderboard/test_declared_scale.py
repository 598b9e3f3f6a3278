"""A metric's declared scale (range and direction) puts it on the 0..1 scale of family and overall scores.

CVSS tasks rank by ``mad`` (mean absolute deviation of base scores, 0 to 10 points, lower is better),
whose name says nothing of its range: the task declares the scale, the summary and the submission carry
it, and the report scores the task ``1 - mad/10`` instead of leaving it out. A submission without a
scale (written before there was one) is read as before.
"""

from __future__ import annotations

import asyncio
import copy
import json
import math
from typing import Any

import pytest
from pydantic import ValidationError

from harness.plan import RunPlan, TaskPlan
from harness.runner import RunOptions, execute
from harness.types import MetricScale, MetricValue, TaskSummary
from leaderboard.aggregate import overall_rows, task_rows
from leaderboard.metrics import metric_range, normalised, points_up
from leaderboard.submission import build_submission
from leaderboard.validate import validate_submission
from leaderboard.views import missing_tasks

CVSS = {"low": 0.0, "high": 10.0, "higher_is_better": False}


def test_a_declared_scale_sets_the_range_direction_and_normalised_score() -> None:
    assert normalised(2.5, "mad", "bootstrap", CVSS) == pytest.approx(0.75)
    assert normalised(2.5, "mad", "bootstrap") is None  # undeclared: no finite range, as before
    assert metric_range("mad", "bootstrap", CVSS) == (0.0, 10.0) and not points_up("mad", CVSS)
    percent = {"low": 0.0, "high": 100.0, "higher_is_better": True}
    assert normalised(40.0, "score_percent", "bootstrap", percent) == pytest.approx(0.4)
    assert points_up("error_count", percent)  # the declaration wins over the name's suffix rule
    assert normalised(float("nan"), "mad", "bootstrap", CVSS) is None


@pytest.mark.parametrize(
    "bad",
    [
        {"low": 1.0, "high": 1.0},
        {"low": 5.0, "high": 0.0},
        {"low": float("-inf"), "high": 0.0},
        {"low": 0.0, "high": float("nan")},
        {"low": 0.0, "high": 1.0, "extra": 1},
    ],
)
def test_a_scale_needs_a_finite_nonempty_range(bad: dict[str, Any]) -> None:
    with pytest.raises(ValidationError):
        MetricScale.model_validate(bad)


def test_summary_json_gains_the_scale_only_where_declared_and_reads_old_summaries() -> None:
    plain = MetricValue(value=0.5, n=4, ci_low=0.2, ci_high=0.8, method="wilson")
    assert "scale" not in plain.model_dump(mode="json")
    scaled = plain.model_copy(update={"scale": MetricScale(**CVSS)})
    assert scaled.model_dump(mode="json")["scale"] == CVSS
    old = {"metrics": {"mad": plain.model_dump(mode="json")}, "counts": {}, "usage": {}, "cost_usd": None}
    assert TaskSummary.model_validate(old).metrics["mad"].scale is None
    assert MetricValue.model_validate_json(scaled.model_dump_json()) == scaled


@pytest.fixture(scope="module")
def cvss_submission(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A real run of cyber-gen/cvss (random vectors) and demo/arith, submitted."""
    run = tmp_path_factory.mktemp("scale") / "run"
    tasks = (TaskPlan("cyber-gen/cvss", {"n": 12, "seed": 0}), TaskPlan("demo/arith", {"n": 6}))
    asyncio.run(execute(RunPlan(model="builtin/random", tasks=tasks), run, RunOptions(progress=False)))
    return build_submission([run])


def test_a_cvss_run_joins_the_overall_score_as_one_minus_mad_over_ten(cvss_submission: dict[str, Any]) -> None:
    entry = cvss_submission["tasks"]["cyber-gen/cvss"]
    mad = entry["metrics"]["mad"]
    assert entry["primary_metric"] == "mad" and entry["higher_is_better"] is False
    assert mad["scale"] == CVSS and 0 < mad["value"] < 10
    assert "scale" not in entry["metrics"]["exact_vector"]
    assert validate_submission(cvss_submission) == []
    json.loads(json.dumps(cvss_submission, allow_nan=False))  # the submission is plain JSON

    rows = task_rows([cvss_submission]).set_index("task")
    assert rows.loc["cyber-gen/cvss", "score"] == pytest.approx(1 - mad["value"] / 10)
    assert rows.loc["cyber-gen/cvss", "score_low"] == pytest.approx(1 - mad["ci_high"] / 10)
    assert rows.loc["cyber-gen/cvss", "score_high"] == pytest.approx(1 - mad["ci_low"] / 10)
    families, overall = overall_rows([cvss_submission], task_rows([cvss_submission]))
    assert set(families["family"]) == {"cyber", "demo"}
    demo = rows.loc["demo/arith", "score"]
    assert overall["score"].iloc[0] == pytest.approx((demo + 1 - mad["value"] / 10) / 2)
    assert overall["tasks"].iloc[0] == 2 and missing_tasks(cvss_submission) == []


def test_a_submission_without_the_scale_leaves_mad_out_as_before(cvss_submission: dict[str, Any]) -> None:
    old = copy.deepcopy(cvss_submission)
    del old["tasks"]["cyber-gen/cvss"]["metrics"]["mad"]["scale"]
    assert validate_submission(old) == []
    assert math.isnan(task_rows([old]).set_index("task").loc["cyber-gen/cvss", "score"])
    assert [m["task"] for m in missing_tasks(old)] == ["cyber-gen/cvss"]
    assert "mad has no value on a 0–1 scale" in missing_tasks(old)[0]["reason"]


def test_a_scale_that_is_malformed_empty_or_contradicted_is_an_issue(cvss_submission: dict[str, Any]) -> None:
    def issues(edit: Any) -> list[str]:
        data = copy.deepcopy(cvss_submission)
        edit(data["tasks"]["cyber-gen/cvss"])
        return [issue.message for issue in validate_submission(data)]

    assert issues(lambda t: t["metrics"]["mad"]["scale"].update(unit="points"))  # schema: no other key
    assert issues(lambda t: t["metrics"]["mad"]["scale"].update(higher_is_better="no"))
    assert any("is empty" in m for m in issues(lambda t: t["metrics"]["mad"]["scale"].update(low=10.0)))
    assert any("outside the range [0.0, 10.0]" in m for m in issues(lambda t: t["metrics"]["mad"].update(ci_high=11.0)))
    flipped = issues(lambda t: t.update(higher_is_better=True))
    assert flipped == ["'mad' is lower-is-better"]
