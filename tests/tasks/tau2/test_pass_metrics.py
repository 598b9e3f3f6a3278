"""pass^k, pass@k and the episode metrics of a τ² task's summary."""

from __future__ import annotations

import pytest

from harness.types import Output, SampleResult, Score
from tasks.tau2.metrics import base_task_id, episode_metrics, pass_at_k, pass_hat_k, pass_metrics

NEEDS_TAU2 = False


def test_pass_hat_k_values() -> None:
    assert pass_hat_k(4, 4, 4) == 1.0
    assert pass_hat_k(4, 2, 1) == 0.5
    assert pass_hat_k(4, 2, 2) == pytest.approx(1 / 6)
    assert pass_hat_k(4, 3, 4) == 0.0
    assert pass_at_k(4, 1, 2) == pytest.approx(0.5)
    assert pass_at_k(4, 0, 4) == 0.0
    with pytest.raises(ValueError):
        pass_hat_k(2, 3, 1)
    with pytest.raises(ValueError):
        pass_at_k(2, 1, 3)


def test_pass_metrics_over_tasks() -> None:
    metrics = pass_metrics({"a": [True, True, False], "b": [False, False, False], "c": [True, True, True]})
    assert metrics["pass^1"].value == pytest.approx((2 / 3 + 0 + 1) / 3)
    assert metrics["pass^3"].value == pytest.approx(1 / 3)
    assert metrics["pass@3"].value == pytest.approx(2 / 3)
    pass2 = metrics["pass^2"]
    assert pass2.value is not None and pass2.ci_low is not None and pass2.ci_high is not None
    assert pass2.n == 3 and pass2.ci_low <= pass2.value <= pass2.ci_high
    assert "pass^4" not in metrics


def _result(sample_id: str, ok: bool, termination: str, errors: int, strict: bool | None = None) -> SampleResult:
    return SampleResult(
        sample_id=sample_id,
        task="tau2/retail",
        input="x",
        score=Score.of(ok, reward_strict=float(ok if strict is None else strict)),
        output=Output(data={"termination": termination, "tool_errors": errors}),
    )


def test_episode_metrics() -> None:
    results = [
        _result("retail-0#0", True, "user_stop", 0),
        _result("retail-0#1", False, "max_steps", 2),
        _result("retail-1#0", True, "user_stop", 1, strict=False),
        _result("retail-1#1", True, "user_stop", 0),
        SampleResult(sample_id="retail-2#0", task="tau2/retail", input="x", score=Score.error("down")),
    ]
    metrics = episode_metrics(results)
    assert base_task_id("retail-0#12") == "retail-0"
    assert metrics["pass^2"].value == pytest.approx(0.5)
    assert metrics["pass@2"].value == pytest.approx(1.0)
    assert metrics["termination/user_stop"].value == pytest.approx(0.75)
    assert metrics["tool_errors_per_episode"].value == pytest.approx(0.75)
    assert metrics["strict/pass^2"].value == pytest.approx(0.0) and metrics["strict/pass@2"].value == 1.0
    assert metrics["pass^1"].n == 2  # the errored episode's task is left out, as τ² leaves it out
