"""Issue 19 item 4: the README's quick start runs the local model on the short ``quickstart`` suite.

The suite must stay quick (few samples, tight token caps, greedy) and still touch every family the
smoke suite does except τ²-bench, whose episodes are left to the smoke suite; the oracle must score
every task of it offline, so the suite's tasks and arguments are real.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from harness.suites import load_suite
from leaderboard.metrics import family_of, normalised, primary_metric

MAX_SAMPLES = 3
MAX_TOKENS = 128
COMPARED, COMPARED_SAMPLES = "confiqa-gen/qa", 8  # where the local model is measurably better than random


def test_quickstart_is_small_and_covers_the_smoke_families_but_tau2() -> None:
    quick, smoke = load_suite("quickstart"), load_suite("smoke")
    families = {family_of(plan.name) for plan in quick.tasks}
    assert families == {family_of(plan.name) for plan in smoke.tasks} - {"tau2"}
    assert "τ²-bench is left out" in quick.description
    for plan in quick.tasks:
        assert plan.limit is not None and plan.limit <= (COMPARED_SAMPLES if plan.name == COMPARED else MAX_SAMPLES)
        assert 0 < plan.settings["max_tokens"] <= MAX_TOKENS, plan
        assert plan.settings["temperature"] == 0, plan
    assert sum(plan.limit or 0 for plan in quick.tasks) <= 18


def test_on_the_compared_task_a_model_that_answers_beats_random_beyond_the_intervals(tmp_path: Path) -> None:
    """Issue 38 item 3: the first report must compare the local model with the baselines in a way that means
    something. On these eight ConFiQA samples SmolLM2-135M-Instruct answered 6 (accuracy 0.75 [0.41, 0.93]);
    the random baseline's interval must end below where that one starts."""
    from harness.stats import wilson_interval

    plan = next(p for p in load_suite("quickstart").tasks if p.name == COMPARED)
    assert plan.limit == COMPARED_SAMPLES
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True", "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1"}
    out = tmp_path / "random"
    command = [sys.executable, "-m", "harness", "run", "--suite", "quickstart", "--model", "builtin/random"]
    args = [*command, "--no-cache", "--no-progress", "--out", str(out)]
    done = subprocess.run(args, capture_output=True, text=True, env=env, timeout=240)
    assert done.returncode == 0, done.stderr[-2000:]
    accuracy = json.loads((out / "summary.json").read_text())["tasks"][COMPARED]["metrics"]["accuracy"]
    assert accuracy["n"] == COMPARED_SAMPLES
    assert accuracy["ci_high"] < wilson_interval(6, COMPARED_SAMPLES)[0]


@pytest.mark.slow
def test_the_oracle_scores_every_quickstart_task(tmp_path: Path) -> None:
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True", "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1"}
    out = tmp_path / "oracle"
    command = [sys.executable, "-m", "harness", "run", "--suite", "quickstart", "--model", "builtin/oracle"]
    done = subprocess.run(
        [*command, "--no-cache", "--no-progress", "--out", str(out)],
        capture_output=True,
        text=True,
        env=env,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    summary = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert summary["suite"] == "quickstart"
    for task, entry in summary["tasks"].items():
        assert entry["counts"]["scored"] >= 1 and entry["counts"]["error"] == 0, (task, entry["counts"])
        # every task counts in the report's overall score (a primary metric on a 0-1 scale, not cvss' mad)
        name = primary_metric(list(entry["metrics"]))
        metric = entry["metrics"][name]
        assert normalised(metric["value"], name, metric["method"]) == 1.0, (task, name)
