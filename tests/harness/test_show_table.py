"""``frontier show``'s table prints task, metric and model names as text: brackets in them are not rich markup."""

from __future__ import annotations

import pytest

from harness.cli.show import print_summary
from harness.types import MetricValue, RunSummary, TaskSummary, Usage


def _summary(complete: bool) -> RunSummary:
    metric = MetricValue(value=0.5, n=4, ci_low=0.15, ci_high=0.85, method="wilson")
    task = TaskSummary(
        metrics={"reward[airline]": metric, "[bold]pass^1": metric},
        counts={"scored": 4, "unscored": 0, "error": 0},
        usage=Usage(),
        cost_usd=0.0,
    )
    return RunSummary(
        run_id="r[red]1",
        model="openai-compatible/m[link=x]",
        harness_version="0",
        config_hash="h",
        tasks={"tau2/telecom[mobile_data_issue]": task},
        started_at="s",
        finished_at="f",
        complete=complete,
    )


@pytest.mark.parametrize("complete", [True, False])
def test_bracketed_names_print_as_written(capsys: pytest.CaptureFixture[str], complete: bool) -> None:
    print_summary(_summary(complete))
    out = capsys.readouterr().out
    for text in ("tau2/telecom[mobile_data_issue]", "reward[airline]", "[bold]pass^1", "r[red]1", "m[link=x]"):
        assert text in out
    assert "[0.1500, 0.8500]" in out
    assert ("[INCOMPLETE]" in out) is not complete
