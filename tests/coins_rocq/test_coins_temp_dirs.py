"""However a coqtop pool's owner ends, its workers leave no temporary directory behind.

Each ending runs in a child Python whose TMPDIR is the test's own empty folder, so the count of
entries there after the child has ended (none) is not disturbed by other processes on the machine.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(shutil.which("coqtop") is None, reason="coqtop is not installed")

START = """
import os, signal, sys
from coins_rocq.backends import CoqtopPool, Limits

def start(pool):
    '''Start every worker of the pool; print where each runs.'''
    for slot in pool._slots:
        worker = slot.worker(Limits())
        print(os.readlink(f"/proc/{worker.proc.pid}/cwd"), flush=True)
"""

ENDINGS = {
    "closed": """
with CoqtopPool(2) as pool:
    start(pool)
""",
    "an exception": """
try:
    with CoqtopPool(2) as pool:
        start(pool)
        1 / 0
except ZeroDivisionError:
    pass
""",
    "never closed": """
pool = CoqtopPool(2)
start(pool)
""",
    "SIGTERM": """
pool = CoqtopPool(2)
start(pool)
os.kill(os.getpid(), signal.SIGTERM)
""",
    "SIGINT": """
with CoqtopPool(2) as pool:
    start(pool)
    os.kill(os.getpid(), signal.SIGINT)
""",
    "kill -9": """
pool = CoqtopPool(2)
start(pool)
os.kill(os.getpid(), signal.SIGKILL)
""",
    "os._exit, as a scoring pool's process ends": """
pool = CoqtopPool(2)
start(pool)
os._exit(0)
""",
    "replaced workers": """
with CoqtopPool(1) as pool:
    start(pool)
    pool._slots[0].worker(Limits()).proc.kill()
    start(pool)
    pool._slots[0].discard()
    start(pool)
""",
}
"""How the owner of a started pool ends, as the rest of a child's script."""


def _python(tmpdir: Path, *args: str, path: str | None = None) -> subprocess.CompletedProcess[str]:
    """``python ARGS`` from the repository with TMPDIR (and, when given, PATH) set; its text output."""
    env = {**os.environ, "TMPDIR": str(tmpdir), "PYTHONPATH": str(REPO)}
    if path is not None:
        env["PATH"] = path
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env, cwd=REPO, timeout=240)


@pytest.mark.parametrize("ending", list(ENDINGS))
def test_no_ending_of_the_owner_leaves_a_worker_directory(tmp_path: Path, ending: str) -> None:
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    child = _python(tmpdir, "-c", START + ENDINGS[ending])
    workdirs = child.stdout.splitlines()
    assert workdirs, child.stderr[-2000:]
    # each worker started in a directory of this TMPDIR, already removed while the worker ran
    assert all(w.startswith(f"{tmpdir}/coins-coqtop-") and w.endswith(" (deleted)") for w in workdirs), workdirs
    assert sorted(os.listdir(tmpdir)) == []


def test_a_worker_that_cannot_start_leaves_no_directory(tmp_path: Path) -> None:
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    child = _python(tmpdir, "-c", START + ENDINGS["closed"], path=str(tmp_path / "none"))
    assert "FileNotFoundError" in child.stderr and "coqtop" in child.stderr
    assert sorted(os.listdir(tmpdir)) == []


@pytest.mark.slow
def test_a_spec_gen_run_scored_in_a_process_pool_leaves_nothing_in_tmpdir(tmp_path: Path) -> None:
    """The pool lives in a scoring process, which ends by ``os._exit``: nothing of it may stay."""
    tmpdir = tmp_path / "tmp"
    tmpdir.mkdir()
    args = ["-T", "problems=HumanEval/53", "-T", "max_cases=2", "-T", "mutants=2", "-T", "workers=1"]
    run = _python(
        tmpdir,
        *["-m", "harness", "run", "--task", "coins/spec-gen", *args, "--model", "builtin/oracle"],
        *["--no-cache", "--no-progress", "--out", str(tmp_path / "run")],
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert sorted(os.listdir(tmpdir)) == []
