"""``frontier report`` over a glob that matches its own site, and over a run with no samples."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ENV = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True", "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1"}


def frontier(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "harness", *args], capture_output=True, text=True, env=ENV, timeout=180
    )


@pytest.mark.slow
def test_the_help_example_can_be_run_twice_and_folders_that_are_not_runs_are_skipped(tmp_path: Path) -> None:
    runs = tmp_path / "quickstart"
    for name in ("a", "b"):
        done = frontier(
            "run", "--task", "demo/arith", "--model", "builtin/oracle", "--limit", "2", "--out", str(runs / name)
        )
        assert done.returncode == 0, done.stderr
    (runs / "notes").mkdir()
    site = runs / "site"
    first = frontier("report", *sorted(str(p) for p in runs.iterdir()), "-o", str(site))
    assert first.returncode == 0, first.stderr
    assert f"note: skipped {runs / 'notes'}: not a run directory" in first.stderr
    again = frontier("report", *sorted(str(p) for p in runs.iterdir()), "-o", str(site))  # the glob now matches site/
    assert again.returncode == 0, again.stderr
    assert f"note: skipped {site}: it is the output folder" in again.stderr
    assert "(2 run(s)" in again.stdout and (site / "index.html").is_file()


def test_a_run_that_logged_no_sample_is_refused(tmp_path: Path) -> None:
    run = tmp_path / "run"
    done = frontier("run", "--task", "demo/arith", "--model", "builtin/oracle", "--limit", "1", "--out", str(run))
    assert done.returncode == 0, done.stderr
    (run / "samples.jsonl").write_text("\n")
    refused = frontier("report", str(run), "-o", str(tmp_path / "site"))
    assert refused.returncode == 1
    assert f"{run} logged no samples, so there is nothing to report" in refused.stderr
    assert not (tmp_path / "site").exists()


def test_only_folders_that_are_not_runs_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    refused = frontier("report", str(tmp_path / "empty"), "-o", str(tmp_path / "site"))
    assert refused.returncode == 1 and "none of the folders given is a run directory" in refused.stderr


def test_the_top_level_help_says_report_takes_several_runs() -> None:
    shown = frontier("--help")
    assert "report of one or more runs" in shown.stdout
