"""A run that cannot stop cleanly (work blocking a thread) still ends within a bound after Ctrl-C or SIGTERM.

The adapter is a plugin whose generation blocks a worker thread for two minutes, as a model
being loaded or a synchronous library call does: cancelling the run cannot interrupt it, and
``asyncio.run`` waits for the thread. The run must end within the stop bound anyway, say so,
say how to resume, and keep what it had logged.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from harness.cli.stop_bound import STOP_GRACE_SECONDS

PLUGIN = '''
"""An adapter that answers the first two requests and then blocks a thread for two minutes."""
import asyncio
import os
import threading
import time
from pathlib import Path

from harness.types import Generation

_answered = 0
_lock = threading.Lock()


def _work():
    global _answered
    with _lock:
        _answered += 1
        if _answered <= 2:
            return "ANSWER: 0"
    Path(os.environ["STUCK_MARKER"]).write_text("blocking")
    time.sleep(120)
    return "ANSWER: 0"


class Stuck:
    capabilities = frozenset({"chat"})

    def __init__(self, rest):
        self.name = "stuck/" + rest

    async def generate(self, request):
        return Generation(text=await asyncio.to_thread(_work))


def create(rest, **options):
    return Stuck(rest)
'''


def _install_plugin(site: Path) -> None:
    """The plugin as an installed distribution: its module and a dist-info with the entry point."""
    site.mkdir()
    (site / "stuckplug.py").write_text(PLUGIN)
    info = site / "stuckplug-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: stuckplug\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[frontier.adapters]\nstuck = stuckplug:create\n")


@pytest.mark.parametrize(("signum", "code", "said"), [(signal.SIGINT, 130, ""), (signal.SIGTERM, 143, "SIGTERM")])
def test_a_run_blocked_in_a_thread_ends_within_the_stop_bound(
    tmp_path: Path, signum: signal.Signals, code: int, said: str
) -> None:
    site = tmp_path / "site"
    _install_plugin(site)
    marker = tmp_path / "blocking"
    out = tmp_path / "run"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")]),
        "STUCK_MARKER": str(marker),
        "FRONTIER_CACHE_DIR": str(tmp_path / "cache"),
    }
    argv = [sys.executable, "-m", "harness", "run", "--task", "demo/arith", "--model", "stuck/x"]
    argv += ["--limit", "4", "--concurrency", "1", "--no-progress", "--out", str(out)]
    process = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while not marker.exists() and process.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        assert marker.exists(), process.communicate(timeout=5)
        process.send_signal(signum)
        signalled = time.monotonic()
        _, stderr = process.communicate(timeout=60)
        stopped_after = time.monotonic() - signalled
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == code, stderr
    # liveness, not speed: without the bound the run waited for the blocked thread (two minutes)
    assert stopped_after < STOP_GRACE_SECONDS + 30, stopped_after
    assert "ended now" in stderr and said in stderr, stderr
    assert f"2 sample(s) logged in {out} are kept; resume with: frontier run --resume --out {out}" in stderr
    assert "Traceback" not in stderr
    logged = [json.loads(line) for line in (out / "samples.jsonl").read_text().splitlines()]
    assert len(logged) == 2
