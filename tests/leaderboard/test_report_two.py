"""Issue 38: a report a reader trusts — one interval method everywhere, a summary figure that cannot
rank a dominated run first, a glossary for every metric shown, and an index that says what was run."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import binary

from harness.stats import wilson_interval
from leaderboard.cli import report_command
from leaderboard.plots import cost_window

ENV = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True", "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1"}
CI = re.compile(r"\[(\d\.\d+), (\d\.\d+)\]")


def frontier(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "harness", *args], capture_output=True, text=True, env=ENV, timeout=300
    )


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    """A perfect 3-sample run of demo/arith, its report and its ``frontier show`` output."""
    root = tmp_path_factory.mktemp("report")
    run = root / "oracle"
    done = frontier("run", "--task", "demo/arith", "--model", "builtin/oracle", "--limit", "3", "--out", str(run))
    assert done.returncode == 0, done.stderr
    shown = frontier("show", str(run))
    assert shown.returncode == 0, shown.stderr
    built = frontier("report", str(run), "-o", str(root / "site"))
    assert built.returncode == 0, built.stderr
    return run, root / "site", shown.stdout


def _rounded(pair: tuple[str, str], digits: int) -> tuple[float, float]:
    return round(float(pair[0]), digits), round(float(pair[1]), digits)


def test_one_interval_method_gives_the_same_numbers_on_every_page(site: tuple[Path, Path, str]) -> None:
    _, out, shown = site
    low, high = wilson_interval(3, 3)  # a perfect small sample is never [1, 1]
    assert low < 0.5 and high == 1.0
    wilson = (round(low, 4), high)
    assert _rounded(CI.findall(shown)[0], 4) == wilson
    index = (out / "index.html").read_text()
    body = index.split("<tbody>", 1)[1].split("</tbody>", 1)[0]
    overall, family = CI.findall(body)[:2]
    assert _rounded(overall, 3) == _rounded(family, 3) == (round(low, 3), high)
    task_page = next((out / "tasks").glob("*.html")).read_text()
    assert _rounded(CI.findall(task_page.split("<tbody>", 1)[1])[0], 4) == wilson
    assert "Wilson score interval" in index and "Wilson score interval" in task_page


def test_the_summary_table_never_lists_a_dominated_run_above_the_run_that_dominates_it(
    make_run: Callable[..., Path], tmp_path: Path
) -> None:
    """Issue 38 item 4: a dominating run (better score, fewer tokens) and a dominated one, through the report."""
    best = make_run("best", model="m/best", tokens=(40, 8), tasks={"demo/arith": binary(5, 5)})
    worse = make_run("worse", model="m/worse", tokens=(44, 9), tasks={"demo/arith": binary(1, 5)})
    result = CliRunner().invoke(report_command, [str(worse), str(best), "-o", str(tmp_path / "site")])
    assert result.exit_code == 0, result.output
    for page in [tmp_path / "site" / "index.html", *(tmp_path / "site" / "tasks").glob("*.html")]:
        table = page.read_text().split('<table class="sortable standings">', 1)[1].split("</table>", 1)[0]
        rows = re.findall(r"<tr><td>(.*?)</td>.*?<td>([^<]*)</td></tr>", table)
        assert rows == [("m/best", "on the frontier"), ("m/worse", "dominated by m/best")], page
        assert "frontier area" not in page.read_text()


def test_a_cost_axis_spans_at_least_a_decade() -> None:
    """A token axis from 448 to 449 drew two nearly equal runs at its two ends."""
    low, high = cost_window([448, 449])
    assert high / low >= 10 and low < 448 and high > 449
    low, high = cost_window([10, 100_000])
    assert low < 10 and high > 100_000 and high / low < 2 * 10_000
