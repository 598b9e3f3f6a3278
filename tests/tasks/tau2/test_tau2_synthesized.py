"""A synthesized environment in τ²'s domain format runs under the same episode loop and evaluator as τ²'s domains."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from tau2_helpers import tau2_task

from harness.adapters import resolve_adapter
from harness.errors import ConfigError
from harness.runner import evaluate
from tasks.tau2.parity import tau2_registry_over, tau2_reward
from tasks.tau2.synth.generate import synthesize, write_domain
from tasks.tau2.synth.shipped import SPEC_DIR
from tasks.tau2.synth.spec import load_spec
from tasks.tau2.synthesized import read_synthesized
from tasks.tau2.task import Tau2SpecTask
from tasks.tau2.trajectory import logged_trajectory


@pytest.fixture(scope="module")
def library_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    result = synthesize(load_spec(SPEC_DIR / "library.yaml"), seed=0, n_tasks=6)
    return write_domain(result, tmp_path_factory.mktemp("synth"))


async def test_oracle_scores_one_as_tau2_scores_it_and_idle_agent_strict_zero(library_folder: Path) -> None:
    from tau2.data_model.tasks import Task as Tau2Task

    raw = json.loads((library_folder / "tasks.json").read_text())
    assert raw and all(t["evaluation_criteria"]["actions"] for t in raw)
    assert [Tau2Task.model_validate(t).id for t in raw] == json.loads(
        (library_folder / "split_tasks.json").read_text()
    )["base"]
    task = tau2_task(f"tau2-synth/{library_folder}")
    oracle = await evaluate(task, resolve_adapter("builtin/oracle"))
    assert len(oracle) == len(raw) and all(r.score.value == 1.0 for r in oracle), [r.score.explanation for r in oracle]
    assert all(r.score.details["reward_strict"] == 1.0 for r in oracle)
    samples = {s.id: s for s in task.samples()}
    with tau2_registry_over(task.domain()):
        for result in oracle:
            trajectory = logged_trajectory(result.output)
            theirs = tau2_reward(
                task.domain().name,
                task.task_of(samples[result.sample_id]),
                trajectory,
                result.output.data["termination"],
            )
            assert theirs == result.score.value
    idle = await evaluate(task, resolve_adapter("builtin/random", seed=0))
    assert all(r.score.value == 0.0 and r.score.details["reward_strict"] == 0.0 for r in idle)


@pytest.mark.slow
def test_synthesize_writes_tau2_format_that_frontier_runs(tmp_path: Path) -> None:
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    out = tmp_path / "out"
    made = subprocess.run(
        [
            sys.executable,
            "-m",
            "harness",
            "tools",
            "synthesize",
            str(SPEC_DIR / "clinic.yaml"),
            "--tasks",
            "3",
            "-o",
            str(out),
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert made.returncode == 0, made.stderr
    folder = next((out / "domains").iterdir())
    assert {p.name for p in folder.iterdir()} >= {"db.json", "tasks.json", "split_tasks.json", "policy.md", "spec.json"}
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "harness",
            "run",
            "--task",
            f"tau2-synth/{folder}",
            "--model",
            "builtin/oracle",
            "--out",
            str(tmp_path / "run"),
            "--no-progress",
        ],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert run.returncode == 0, run.stderr
    lines = [json.loads(line) for line in (tmp_path / "run" / "samples.jsonl").read_text().splitlines()]
    assert len(lines) == 3 and all(line["score"]["value"] == 1.0 for line in lines)


def test_a_folder_that_is_not_a_synthesized_domain_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not a synthesized τ² domain"):
        tau2_task(f"tau2-synth/{tmp_path}").tau2_tasks()
    (tmp_path / "spec.json").write_text("{}")
    with pytest.raises(ConfigError, match="not a valid spec"):
        tau2_task(f"tau2-synth/{tmp_path}/.").tau2_tasks()


@pytest.mark.parametrize(
    "file, content, fragment",
    [
        ("db.json", '{"records": {}, "counters": {"m": ' + "9" * 5000 + "}}", "a number too long"),
        ("db.json", "[" * 5000 + "]" * 5000, "nested 5000 deep"),
        ("db.json", '{"records": 3}', "not a valid database"),
        ("tasks.json", '{"id": 1}', "expected a JSON list of tasks"),
        ("tasks.json", '[{"id": "0", "user_scenario": 7}]', "task #0: user_scenario"),
        ("tools.json", '["a", 2]', "expected a list of tool names"),
        ("tools.json", '["lend_book", "teleport"]', "names tools the spec does not declare: teleport"),
        ("spec.json", '"\\ud800"', "not a valid spec"),
        ("policy.md", b"\xff\xfe", "policy.md: cannot be read"),
    ],
    ids=[
        "huge-integer",
        "deep",
        "bad-db",
        "tasks-not-list",
        "bad-task",
        "bad-tools",
        "unknown-tool",
        "lone-surrogate",
        "not-utf8",
    ],
)
def test_a_hostile_synthesized_folder_is_refused_naming_the_file(
    library_folder: Path, tmp_path: Path, file: str, content: str | bytes, fragment: str
) -> None:
    folder = tmp_path / "synth-library"
    shutil.copytree(library_folder, folder)
    path = folder / file
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    with pytest.raises(ConfigError, match=fragment) as info:
        read_synthesized(folder)
    assert file in str(info.value) and "\n" not in str(info.value)


async def test_a_shipped_spec_or_a_spec_path_runs_as_a_task_synthesized_in_process(tmp_path: Path) -> None:
    task = tau2_task("tau2-synth/library", n_tasks=4, seed=2)
    assert isinstance(task, Tau2SpecTask) and task.domain_name == "synth-library"
    oracle = await evaluate(task, resolve_adapter("builtin/oracle"))
    assert len(oracle) == 4 and all(r.score.value == 1.0 and r.score.details["reward_strict"] == 1.0 for r in oracle)
    copied = tmp_path / "my-clinic.yaml"
    shutil.copy(SPEC_DIR / "clinic.yaml", copied)
    assert isinstance(tau2_task(f"tau2-synth/{copied}", n_tasks=2), Tau2SpecTask)
    with pytest.raises(ConfigError, match="unknown synthesis spec"):
        tau2_task(f"tau2-synth/{tmp_path / 'missing.yaml'}").tau2_tasks()
