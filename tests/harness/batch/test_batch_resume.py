"""A batched run killed while it waits, and resumed: it polls the batch it made instead of sending it again."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

from harness.batch.state import STATE_FILE, read_batches
from harness.testing.batch_server import BatchServer

from .conftest import run_arith, scores


def command_env() -> dict[str, str]:
    """The environment of a ``frontier`` command, read when it starts: the conftest's quick batches and the
    test's private response cache (an import-time copy would carry neither)."""
    return {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}


def frontier(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "harness", *args], capture_output=True, text=True, env=command_env(), timeout=120
    )


def wait_for(predicate: Callable[[], bool], timeout: float = 60) -> None:
    deadline = time.time() + timeout
    while not predicate():
        assert time.time() < deadline, "condition not met in time"
        time.sleep(0.05)


def test_killed_while_waiting_then_resumed_polls_the_same_batch(tmp_path: Path, batch_server: BatchServer) -> None:
    """kill -9 while the batch is in progress; show says what waits; --resume finishes it without resubmitting."""
    model = f"openai-compatible/test-model@{batch_server.base_url}"
    out = tmp_path / "batched"
    batch_server.behaviour.paused = True
    args = ["--task", "demo/arith", "-T", "n=20", "--model", model, "--no-cache", "--no-progress", "--out", str(out)]
    process = subprocess.Popen(
        [sys.executable, "-m", "harness", "run", *args, "--batch"],
        env=command_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for(lambda: bool(read_batches(out)) and (out / STATE_FILE).is_file())
        time.sleep(0.3)  # a few polls of the paused batch
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.wait(30)
    shown = frontier("show", str(out))
    assert "batch batch_2 (" in shown.stdout and "20 request(s) waiting" in shown.stdout
    batch_server.behaviour.paused = False
    resumed = frontier("run", "--resume", "--out", str(out), "--no-progress")
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert "resuming in batch mode" in resumed.stderr
    assert list(batch_server.batches) == ["batch_2"]  # polled again, never resubmitted
    run_arith(tmp_path / "direct", model, batch=False)
    assert scores(out) == scores(tmp_path / "direct")
    shown = frontier("show", str(out))
    assert shown.returncode == 0 and "waiting" not in shown.stdout


def test_killed_between_the_provider_making_the_batch_and_recording_it(
    tmp_path: Path, batch_server: BatchServer
) -> None:
    """The provider made the batch but the process died before writing its id: --resume finds it by the
    submission token in its metadata and polls it, sending nothing twice."""
    from harness.batch.state import read_submissions

    model = f"openai-compatible/test-model@{batch_server.base_url}"
    out = tmp_path / "batched"
    batch_server.behaviour.hang_after_create = True
    args = ["--task", "demo/arith", "-T", "n=6", "--model", model, "--no-cache", "--no-progress", "--out", str(out)]
    process = subprocess.Popen(
        [sys.executable, "-m", "harness", "run", *args, "--batch"],
        env=command_env(),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for(lambda: bool(batch_server.batches))
    finally:
        os.kill(process.pid, signal.SIGKILL)
        process.wait(30)
    (submission,) = read_submissions(out).values()
    assert submission.batch_id is None and len(submission.requests) == 6
    assert f"submission {submission.token}" in frontier("show", str(out)).stdout
    batch_server.behaviour.hang_after_create = False
    resumed = frontier("run", "--resume", "--out", str(out), "--no-progress")
    assert resumed.returncode == 0, resumed.stderr[-2000:]
    assert list(batch_server.batches) == ["batch_2"]
    assert f"submission {submission.token}: found as batch batch_2" in resumed.stderr
    assert read_submissions(out)[submission.token].batch_id == "batch_2"
