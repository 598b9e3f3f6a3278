"""Score against output tok/s and latency in the report: a sweep's runs become distinct entries whose
throughput (with its intervals) reaches the submission, the site's speed plots and the task page."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from harness.cli.sweep import sweep_command
from harness.testing.timed_server import TimedServer
from leaderboard.plots import reciprocal_tick
from leaderboard.submission import build_submission, config_label
from leaderboard.validate import validate_submission
from leaderboard.views import speed_points


@pytest.fixture(scope="module")
def sweep_runs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    out = tmp_path_factory.mktemp("speed") / "sweep"
    with TimedServer(tokens=16, step_delay_s=0.05) as server:
        outcome = CliRunner().invoke(
            sweep_command,
            [
                "--task", "demo/arith", "-T", "n=6", "--model", f"openai-compatible/dlm@{server.base_url}",
                "--grid", "extra_body.steps=1,2,4", "--concurrency", "1", "--out", str(out),
                "--no-cache", "--no-progress",
            ],
        )  # fmt: skip
    assert outcome.exit_code == 0, outcome.output
    return [Path(point["run_dir"]) for point in json.loads((out / "sweep.json").read_text())["points"]]


def test_a_sweep_point_is_its_own_entry_with_its_throughput(sweep_runs: list[Path]) -> None:
    submissions = [build_submission([run]) for run in sweep_runs]
    assert [s["method"]["label"] for s in submissions] == [f"extra_body.steps={n}" for n in (1, 2, 4)]
    for submission, run in zip(submissions, sweep_runs, strict=True):
        assert validate_submission(submission, str(run)) == []
        block = submission["tasks"]["demo/arith"]["throughput"]
        assert block["definition"] == "frontier-throughput/1" and block["output_tok_s"] > 0
        low, high = block["output_tok_s_ci"]
        assert low <= block["output_tok_s"] <= high
    rates = [s["tasks"]["demo/arith"]["throughput"]["output_tok_s"] for s in submissions]
    assert rates[0] > rates[1] > rates[2]
    assert config_label({"engine": {"config": {"threads": "2"}}}, "best_of_n:n=4") == "best_of_n:n=4 [threads=2]"
    assert config_label({}, "none") == "none"


def test_the_report_draws_score_against_tok_s_and_latency(sweep_runs: list[Path], tmp_path: Path) -> None:
    from leaderboard.cli import report_command

    site = tmp_path / "site"
    outcome = CliRunner().invoke(report_command, [*map(str, sweep_runs), "-o", str(site)])
    assert outcome.exit_code == 0, outcome.output
    tok_s = sorted(site.glob("plots/task-*-tok-s.svg"))
    latency = sorted(site.glob("plots/task-*-latency.svg"))
    assert len(tok_s) == 1 and len(latency) == 1
    svg = tok_s[0].read_text()
    assert "output tok/s" in svg and "Pareto frontier" in svg
    page = next(p for p in site.glob("tasks/*.html") if "score against output tok/s" in p.read_text())
    html = page.read_text()
    assert "score against median latency" in html
    table = html[html.index('<table class="sortable standings speed">') :]
    table = table[: table.index("</table>")]
    rows = {row.split("</td>")[0]: row for row in table.split("<tr><td>")[1:]}
    slowest_zero = next(label for label in rows if label.startswith("extra_body.steps=2 "))
    assert "dominated by extra_body.steps=1 (openai-compatible/dlm@" in rows[slowest_zero]
    best = next(label for label in rows if label.startswith("extra_body.steps=4 "))
    assert rows[best].count("on the frontier") == 2  # the best score is on both frontiers


def test_speed_points_carry_both_intervals_and_skip_what_is_missing() -> None:
    entry = {
        "primary_metric": "accuracy",
        "metrics": {"accuracy": {"value": 0.5, "n": 8, "ci_low": 0.2, "ci_high": 0.8, "method": "wilson"}},
        "throughput": {"output_tok_s": 50.0, "output_tok_s_ci": [40.0, 80.0], "latency_s_median": 0.3},
    }
    data = {"model": "m", "method": {"label": "threads=2"}}
    tok_s, latency = speed_points(entry, data, 0.5)
    assert tok_s is not None and tok_s.cost == pytest.approx(0.02)  # seconds per output token
    assert tok_s.meta["x_ci"] == pytest.approx([1 / 80, 1 / 40]) and tok_s.meta["score_ci"] == [0.2, 0.8]
    assert latency is not None and latency.cost == 0.3 and latency.meta["x_ci"] is None
    hostile = {**entry, "throughput": {"output_tok_s": 0, "output_tok_s_ci": ["x", 1], "latency_s_median": -1}}
    assert speed_points(hostile, data, 0.5) == (None, None)
    assert speed_points({**entry, "throughput": None}, data, 0.5) == (None, None)
    assert reciprocal_tick(0.01) == "100" and reciprocal_tick(0.0) == "∞"
