"""``frontier compare`` (issue 39) on real runs: ``frontier run`` of demo/arith against a loopback server
whose "models" answer right on chosen items, checked against scipy's exact binomial test."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from scipy.stats import binomtest

from harness.paired import holm
from harness.testing.openai_server import FaultPlan, OpenAIServer, Reply
from harness.testing.responders import solve_arith
from tasks.demo.arith import ArithTask

ENV = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True", "HF_HUB_OFFLINE": "1"}
N = 200
PROMPTS = {sample.input: (index, sample.target) for index, sample in enumerate(ArithTask("demo/arith").samples())}
RIGHT = {
    "base": set(range(150)),  # right on the first 150 items
    "same": set(range(150)),  # another model, right on the same ones
    "better": set(range(180)),  # right on 30 more: 30 discordant pairs, all one way
    "mixed": set(range(8, 170)),  # wrong on 8 of base's, right on 20 base misses
}
"""The items each model answers right; on the others it is off by one."""


def _respond(body: dict[str, Any]) -> Reply:
    prompt = str(body["messages"][-1]["content"])
    index, target = PROMPTS.get(prompt) or (-1, solve_arith(prompt))
    answer = target if index in RIGHT[body["model"]] else target + 1
    return Reply(text=f"Step by step.\nANSWER: {answer}")


def frontier(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "harness", *args], capture_output=True, text=True, env=ENV, timeout=300
    )


def _run(url: str, model: str, out: Path, *extra: str, status: int = 0) -> Path:
    done = frontier(
        "run", "--task", "demo/arith", "--model", f"openai-compatible/{model}@{url}", "--out", str(out), *extra
    )
    assert done.returncode == status, done.stderr
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Path]]:
    root = tmp_path_factory.mktemp("compare")
    with OpenAIServer(_respond) as server:
        made = {model: _run(server.base_url, model, root / model, "--limit", str(N)) for model in RIGHT}
        made["steps5"] = _run(server.base_url, "base", root / "steps5", "--limit", "20", "-T", "steps=5")
    with OpenAIServer(faults=FaultPlan(rates={"500": 1.0})) as failing:
        made["failed"] = _run(
            failing.base_url, "base", root / "failed", "--limit", "20", "--max-retries", "0", status=1
        )
    yield made


def compare(*runs: Path, options: tuple[str, ...] = ()) -> dict[str, Any]:
    """``frontier compare RUNS --json`` in this process (the refusals below go through the real command line)."""
    from click.testing import CliRunner

    from harness.cli.compare import compare_command

    done = CliRunner().invoke(compare_command, [*map(str, runs), "--json", *options])
    assert done.exit_code == 0, done.output
    return json.loads(done.stdout)  # stdout alone: a stray log line on stderr is not the JSON


def test_runs_that_differ_on_no_item_give_diff_0_and_p_1(runs) -> None:
    row = compare(runs["base"], runs["same"])["pairs"][0]["tasks"]["demo/arith"]
    assert (row["n_paired"], row["a"], row["b"], row["diff"], row["p_value"]) == (N, 0.75, 0.75, 0.0, 1.0)
    assert row["ci"] == [0.0, 0.0] and row["se_paired"] == 0.0 and row["mde"] is None


def test_30_of_200_items_one_way_give_scipys_exact_p_value(runs) -> None:
    row = compare(runs["base"], runs["better"])["pairs"][0]["tasks"]["demo/arith"]
    assert row["test"] == "mcnemar-exact" and row["metric"] == "accuracy"
    assert row["diff"] == pytest.approx(0.15) and (row["only_a"], row["only_b"]) == (0, 0)
    assert row["p_value"] == pytest.approx(binomtest(0, 30, 0.5).pvalue, rel=1e-9)
    assert row["ci"][0] > 0.09 and row["ci"][1] < 0.21
    assert row["se_paired"] < row["se_unpaired"]
    assert row["mde"] == pytest.approx(2.8015852 * 30**0.5 / N, rel=1e-6) and row["items_needed"] is None


def test_discordance_both_ways_and_three_runs_are_holm_adjusted(runs) -> None:
    result = compare(runs["base"], runs["better"], runs["mixed"])
    assert [(p["run_a"], p["run_b"]) for p in result["pairs"]] == [
        ("base", "better"),
        ("base", "mixed"),
        ("better", "mixed"),
    ]
    rows = [pair["tasks"]["demo/arith"] for pair in result["pairs"]]
    assert rows[1]["p_value"] == pytest.approx(binomtest(8, 28, 0.5).pvalue, rel=1e-9)
    assert [r["p_adjusted"] for r in rows] == pytest.approx(holm([r["p_value"] for r in rows]))
    bh = compare(runs["base"], runs["better"], runs["mixed"], options=("--adjust", "bh"))
    assert bh["adjustment"] == "bh" and bh["pairs"][1]["tasks"]["demo/arith"]["p_adjusted"] >= rows[1]["p_value"]


def test_items_only_one_run_has_are_counted_and_left_out(runs, tmp_path: Path) -> None:
    short = shutil.copytree(runs["better"], tmp_path / "short")
    lines = (short / "samples.jsonl").read_text().splitlines(keepends=True)
    (short / "samples.jsonl").write_text("".join(lines[:120]))
    row = compare(runs["base"], short)["pairs"][0]["tasks"]["demo/arith"]
    assert (row["n_paired"], row["only_a"], row["only_b"]) == (120, 80, 0)


def test_the_table_names_the_difference_and_what_was_left_out(runs) -> None:
    done = frontier("compare", str(runs["base"]), str(runs["better"]))
    assert done.returncode == 0, done.stderr
    assert "B − A" in done.stdout and "+0.1500" in done.stdout and "mcnemar-exact" in done.stdout


def _refused(*runs: Path) -> str:
    done = frontier("compare", *map(str, runs))
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert done.stderr.startswith("error: ") and done.stderr.count("\n") == 1, done.stderr
    return done.stderr


def test_runs_of_different_tasks_are_refused(runs, tmp_path: Path) -> None:
    other = tmp_path / "other"
    done = frontier("run", "--task", "cyber-gen/cwe", "--model", "builtin/oracle", "--limit", "3", "--out", str(other))
    assert done.returncode == 0, done.stderr
    assert "share no task" in _refused(runs["base"], other)


def test_runs_of_different_arguments_are_refused(runs) -> None:
    assert "different arguments" in _refused(runs["base"], runs["steps5"]) and "steps=4 vs 5" in _refused(
        runs["base"], runs["steps5"]
    )


def test_runs_on_data_of_a_different_hash_are_refused(runs, tmp_path: Path) -> None:
    changed = shutil.copytree(runs["better"], tmp_path / "changed")
    config = json.loads((changed / "config.json").read_text())
    config["samples"]["demo/arith"] = "sha256:" + "0" * 64
    (changed / "config.json").write_text(json.dumps(config))
    assert "different data (data hashes" in _refused(runs["base"], changed)


def test_an_item_with_a_different_target_is_refused(runs, tmp_path: Path) -> None:
    changed = shutil.copytree(runs["better"], tmp_path / "target")
    lines = (changed / "samples.jsonl").read_text().splitlines(keepends=True)
    record = json.loads(lines[3])
    record["target"] += 1
    lines[3] = json.dumps(record) + "\n"
    (changed / "samples.jsonl").write_text("".join(lines))
    assert "different input or target" in _refused(runs["base"], changed)


def test_runs_with_no_scored_item_in_common_are_refused(runs) -> None:
    assert "no scored item in common" in _refused(runs["base"], runs["failed"])


def test_a_directory_that_is_not_a_run_is_refused(runs, tmp_path: Path) -> None:
    assert "not a run directory" in _refused(runs["base"], tmp_path)


def test_trials_of_an_item_are_averaged_and_their_flip_rate_reported(tmp_path: Path) -> None:
    from tasks.tau2.task import Tau2DomainTask

    if Tau2DomainTask.missing_library():
        pytest.skip(Tau2DomainTask.missing_library())
    made = []
    for model in ("random", "oracle"):
        out = tmp_path / model
        args = ("--task", "tau2/mock", "--model", f"builtin/{model}", "--trials", "3", "--limit", "9")
        done = frontier("run", *args, "--out", str(out))
        assert done.returncode == 0, done.stderr
        made.append(out)
    row = compare(*made)["pairs"][0]["tasks"]["tau2/mock"]
    assert (row["n_paired"], row["trials_a"], row["trials_b"], row["metric"]) == (3, 3, 3, "reward")
    assert row["flip_rate_a"] == 0.0 and row["b"] == 1.0


def test_the_flip_rate_is_the_share_of_repeated_items_whose_trials_disagree() -> None:
    from harness.compare import ItemLog, RunTask

    task = RunTask(config={}, digest=None)
    task.items = {"x": ItemLog([1.0, 1.0], 2), "y": ItemLog([1.0, 0.0, 1.0], 3), "z": ItemLog([0.0], 1)}
    assert task.flip_rate() == 0.5
    assert RunTask(config={}, digest=None, items={"z": ItemLog([0.0], 1)}).flip_rate() is None


def test_a_trial_suffix_is_dropped_from_the_item_and_longcot_clusters_by_template() -> None:
    from harness.registry import resolve_task
    from harness.types import SampleResult, Score

    def result(sample_id: str, **metadata: object) -> SampleResult:
        return SampleResult(sample_id=sample_id, task="t", input="q", score=Score.of(True), metadata=metadata)

    arith = ArithTask("demo/arith")
    assert arith.item_of(result("retail-3#2", trial=2)) == "retail-3"
    assert arith.item_of(result("retail-3#2")) == "retail-3#2" and arith.cluster_of(result("a")) is None
    longcot = resolve_task("longcot-gen/math").create()
    assert longcot.cluster_of(result("m/1", domain="math", template="dag")) == "math/dag"


def test_confiqa_items_of_one_source_triple_are_resampled_together(tmp_path: Path) -> None:
    made = []
    for model in ("random", "oracle"):
        out = tmp_path / model
        done = frontier("run", "--task", "confiqa-gen/mr", "--model", f"builtin/{model}", "--out", str(out))
        assert done.returncode == 0, done.stderr
        made.append(out)
    row = compare(*made)["pairs"][0]["tasks"]["confiqa-gen/mr"]
    assert row["test"] == "sign-flip" and row["clusters"] == row["clusters_declared"] == 151 < row["n_paired"] == 200
    assert row["ci"][0] < row["diff"] < row["ci"][1] and row["p_value"] < 1e-3


def test_a_suite_is_compared_on_the_mean_of_its_tasks_differences(tmp_path: Path) -> None:
    made = []
    for model in ("random", "oracle"):
        out = tmp_path / model
        tasks = ("--task", "demo/arith", "--task", "cyber-gen/cwe", "--limit", "20")
        done = frontier("run", *tasks, "--model", f"builtin/{model}", "--out", str(out))
        assert done.returncode == 0, done.stderr
        made.append(out)
    pair = compare(*made)["pairs"][0]
    rows = pair["tasks"]
    assert pair["suite"]["tasks"] == ["demo/arith", "cyber-gen/cwe"] and pair["suite"]["n_paired"] == 40
    assert pair["suite"]["diff"] == pytest.approx((rows["demo/arith"]["diff"] + rows["cyber-gen/cwe"]["diff"]) / 2)
    assert pair["suite"]["test"] == "sign-flip" and pair["suite"]["p_value"] < 0.01


@pytest.mark.parametrize(
    "tasks, message",
    [
        ("demo/arith", "'tasks' is not a list of tasks with names"),
        ([{"name": "no/such-task", "version": "1", "args": {}}], "no/such-task"),
        ([{"name": "demo/arith", "version": "1", "args": {"n": "many"}}], "-T n"),
    ],
)
def test_a_hostile_config_is_refused_in_one_line(runs, tmp_path: Path, tasks: object, message: str) -> None:
    changed = shutil.copytree(runs["base"], tmp_path / "hostile")
    config = json.loads((changed / "config.json").read_text())
    config["tasks"] = tasks
    (changed / "config.json").write_text(json.dumps(config))
    assert message in _refused(changed, runs["base"])


def test_a_graded_lower_is_better_metric_gets_the_sign_flip_test(tmp_path: Path) -> None:
    made = []
    for model in ("random", "oracle"):
        out = tmp_path / model
        done = frontier(
            "run", "--task", "cyber-gen/cvss", "--model", f"builtin/{model}", "--limit", "40", "--out", str(out)
        )
        assert done.returncode == 0, done.stderr
        made.append(out)
    row = compare(*made)["pairs"][0]["tasks"]["cyber-gen/cvss"]
    assert (row["metric"], row["higher_is_better"], row["test"], row["b"]) == ("mad", False, "sign-flip", 0.0)
    assert row["diff"] < row["ci"][1] < 0 and row["p_value"] < 0.001
