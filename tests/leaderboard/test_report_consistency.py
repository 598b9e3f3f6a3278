"""A report a reader trusts — one interval method everywhere, a summary figure that cannot
rank a dominated run first, a glossary for every metric shown, and an index that says what was run."""

from __future__ import annotations

import asyncio
import os
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import binary, write_run
from leaderboard_cdp import Browser, chromium_available

import harness.task
from harness.stats import wilson_interval
from leaderboard.cli import report_command
from leaderboard.glossary import define
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


SOURCES = [*Path(__file__).resolve().parents[2].joinpath("tasks").rglob("*.py"), Path(harness.task.__file__)]
LITERAL_METRICS = re.compile(
    r'Metric\(\s*"([^"]+)"|"([A-Za-z0-9_^@]+)": (?:mean_metric|proportion_metric|ratio_metric|MetricValue)\('
)


def test_every_metric_a_task_reports_is_described_in_the_glossary() -> None:
    """Issue 38 item 7: invalid_rate sent readers to 'frontier list tasks', which does not describe it."""
    names = {a or b for path in SOURCES for a, b in LITERAL_METRICS.findall(path.read_text(encoding="utf-8"))}
    assert {"invalid_rate", "accuracy", "mad", "reward_strict", "correct"} <= names
    built = {"pass^1", "pass@4", "strict/pass^2", "termination/user_stop", "retail/reward", "questions/easy"}
    built |= {f"{stem}_{subset}" for stem in ("pc", "po", "mr", "em") for subset in ("qa", "mr", "mc")}
    undescribed = sorted(name for name in names | built if "does not describe" in define(name))
    assert not undescribed
    assert "does not describe" in define("made_up_metric")  # the fallback says so, and sends nobody elsewhere
    assert "frontier list tasks" not in define("made_up_metric")


FAMILIES = ("demo/arith", "longcot/mini", "coins/humaneval", "confiqa/qa", "tau2/retail", "tools/library", "cyber/mcq")


def _quickstart_like(root: Path) -> Path:
    """A report of three runs over seven families (the smoke suite's width), built as ``frontier report`` does."""
    runs = [
        write_run(root / "runs", model.rsplit("/", 1)[-1], model=model, tasks={t: binary(1, 2) for t in FAMILIES})
        for model in ("builtin/oracle", "builtin/random", "local/gemma-3-270m")
    ]
    result = CliRunner().invoke(report_command, [*map(str, runs), "-o", str(root / "site")])
    assert result.exit_code == 0, result.output
    return root / "site"


def test_a_report_says_runs_and_shows_the_settings_each_ran_with(tmp_path: Path) -> None:
    run = tmp_path / "run"
    done = frontier(
        "run", "--task", "demo/arith", "--model", "builtin/oracle", "--limit", "2", "--max-tokens", "77",
        "--out", str(run),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    built = frontier("report", str(run), "-o", str(tmp_path / "site"))
    assert built.returncode == 0, built.stderr
    pages = [tmp_path / "site" / "index.html", *(tmp_path / "site" / "tasks").glob("*.html")]
    for page in pages:
        html = page.read_text()
        assert '<span class="settings">max_tokens 77 · temperature 0</span>' in html, page
        assert "submission" not in html.lower(), page
    assert "<h1>Report</h1>" in pages[0].read_text()


@pytest.mark.slow
@pytest.mark.skipif(not chromium_available(), reason="chromium is not installed")
def test_the_index_fits_1400_pixels(tmp_path: Path) -> None:
    site = _quickstart_like(tmp_path)

    async def widths() -> tuple[float, float]:
        async with Browser() as browser:
            await browser.send(
                "Emulation.setDeviceMetricsOverride", width=1400, height=900, deviceScaleFactor=1, mobile=False
            )
            await browser.load((site / "index.html").as_uri())
            page = await browser.evaluate("document.documentElement.scrollWidth")
            table = await browser.evaluate("document.querySelector('table.leaderboard').getBoundingClientRect().right")
            return float(page), float(table)

    page, table = asyncio.run(widths())
    assert page <= 1400 and table <= 1400


def test_runs_of_one_configuration_keep_their_own_rows_and_sample_pages(tmp_path: Path) -> None:
    runs = []
    for seed in ("1", "2"):
        run = tmp_path / f"seed-{seed}"
        done = frontier(
            "run", "--task", "demo/arith", "--model", "builtin/random", "--limit", "6", "--seed", seed,
            "--out", str(run),
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        runs.append(run)
    built = frontier("report", *map(str, runs), "-o", str(tmp_path / "site"))
    assert built.returncode == 0, built.stderr
    index = (tmp_path / "site" / "index.html").read_text()
    assert "seed-1" in index and "seed-2" in index
    first_pages = sorted((tmp_path / "site" / "samples").glob("*-1.html"))
    assert len(first_pages) == 2, first_pages
    assert first_pages[0].read_text() != first_pages[1].read_text()
