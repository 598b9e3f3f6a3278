"""Diagnostics through the one log handler: serve's lines once with -v, the in-thread fallback, plugins' loggers."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import time
import urllib.request
from pathlib import Path

import pytest

from harness.testing.openai_server import OpenAIServer

ENV = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}

DRIFTING_FAMILY = '''
import itertools
import logging

from harness.task import TaskFamily
from tasks.demo.arith import ArithTask

BUILDS = itertools.count()


class DriftingArith(ArithTask):
    """A CPU-heavy task whose every build differs, so a scoring worker cannot rebuild it exactly."""

    cpu_heavy = True

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.build = next(BUILDS)
        logging.getLogger(__name__).info("drifting arith built (%d)", self.build)

    def fingerprint(self):
        return {**super().fingerprint(), "build": self.build}


FAMILY = TaskFamily.of(("drift/arith", DriftingArith))
'''


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_serve_with_v_logs_each_request_once(tmp_path: Path) -> None:
    port, log = _free_port(), tmp_path / "serve.log"
    with OpenAIServer() as upstream, log.open("w") as sink:
        command = [sys.executable, "-m", "harness", "-v", "serve", f"openai-compatible/m@{upstream.base_url}"]
        server = subprocess.Popen([*command, "--port", str(port)], stdout=sink, stderr=sink, env=ENV)
        try:
            deadline = time.monotonic() + 60
            while "serving" not in log.read_text() and time.monotonic() < deadline:
                assert server.poll() is None, log.read_text()
                time.sleep(0.1)
            body = json.dumps({"model": "m", "messages": [{"role": "user", "content": "hi"}]}).encode()
            url = f"http://127.0.0.1:{port}/v1/chat/completions"
            with urllib.request.urlopen(urllib.request.Request(url, data=body), timeout=30):
                pass
            time.sleep(0.3)
        finally:
            server.terminate()
            server.wait(30)
    lines = [line for line in log.read_text().splitlines() if "/v1/chat/completions" in line]
    assert len(lines) == 1, log.read_text()
    assert lines[0].startswith("INFO harness.serve: ") and " POST /v1/chat/completions 200 " in lines[0]


@pytest.fixture(scope="module")
def drifting_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """A site folder whose distribution registers the drifting task family."""
    site = tmp_path_factory.mktemp("site")
    (site / "driftplug.py").write_text(textwrap.dedent(DRIFTING_FAMILY))
    info = site / "driftplug-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: driftplug\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[frontier.tasks]\ndrift = driftplug:FAMILY\n")
    return {**ENV, "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}


@pytest.mark.parametrize("verbose", [False, True])
def test_a_fallback_to_in_thread_scoring_shows_with_v(
    drifting_env: dict[str, str], tmp_path: Path, verbose: bool
) -> None:
    run = tmp_path / "run"
    task = ["--task", "drift/arith", "-T", "n=3", "-T", "steps=2", "--model", "builtin/oracle", "--out", str(run)]
    done = subprocess.run(
        [sys.executable, "-m", "harness", *(["-v"] if verbose else []), "run", *task],
        capture_output=True,
        text=True,
        env=drifting_env,
        timeout=120,
        cwd=tmp_path,
    )
    assert done.returncode == 0, done.stderr
    fallback = "INFO harness.executors.scoring: task drift/arith rebuilt from the registry differs from the run's"
    assert (fallback in done.stderr) is verbose, done.stderr
    assert ("INFO driftplug: drifting arith built (0)" in done.stderr) is verbose, done.stderr  # a plugin's logger
    accuracy = json.loads((run / "summary.json").read_text())["tasks"]["drift/arith"]["metrics"]["accuracy"]
    assert accuracy["value"] == 1.0 and accuracy["n"] == 3
