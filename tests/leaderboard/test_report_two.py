"""Issue 38: a report a reader trusts — one interval method everywhere, a summary figure that cannot
rank a dominated run first, a glossary for every metric shown, and an index that says what was run."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from harness.stats import wilson_interval

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
