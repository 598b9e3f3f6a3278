"""A run says what went wrong, shows progress off a terminal, and leaves nothing behind when it fails.

Every run here is a real ``frontier run`` process against the project's loopback
OpenAI-compatible server; terminal behaviour is checked under a real pty.
"""

from __future__ import annotations

import asyncio
import json
import os
import pty
import select
import subprocess
import sys
import time
from pathlib import Path

import pytest

from harness.calls import CallingAdapter, RetryPolicy
from harness.errors import AdapterError, TransientError
from harness.failures import hint_for, is_permanent, judge_run
from harness.testing.openai_server import FaultPlan, OpenAIServer
from harness.types import GenerateRequest, Message

ENV = {
    **os.environ,
    "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    "HF_DATASETS_OFFLINE": "1",
    "HF_HUB_OFFLINE": "1",
    "PYTHONUNBUFFERED": "1",
}
MISSING_KEY = (
    "InternalServerError: litellm.InternalServerError: InternalServerError: OpenAIException - Missing "
    "credentials. Please pass an `api_key`, `workload_identity`, `admin_api_key`, or set the "
    "`OPENAI_API_KEY` or `OPENAI_ADMIN_KEY` environment variable."
)


def frontier(*args: str, env: dict[str, str] | None = None, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "harness", *args], capture_output=True, text=True, env=env or ENV, timeout=timeout
    )


def _run_args(model: str, out: Path, limit: int = 3) -> list[str]:
    return ["run", "--task", "demo/arith", "--model", model, "--limit", str(limit), "--no-cache", "--out", str(out)]


# -- item 2: permanent failures, the first error with a hint, the exit status ---------------------


@pytest.mark.parametrize(
    "message, permanent",
    [
        (MISSING_KEY, True),
        ("HTTP 401 from http://127.0.0.1:8000/v1: unauthorized", True),
        ("HTTP 403 from http://127.0.0.1:8000/v1: forbidden", True),
        ("HTTP 404 from http://127.0.0.1:8000: 404: Not Found", True),
        ("NotFoundError: The model `gpt-9` does not exist", True),
        ("HTTP 429 from http://127.0.0.1:8000/v1: slow down", False),
        ("HTTP 503 from http://127.0.0.1:8000/v1: overloaded", False),
        ("connection to http://127.0.0.1:9/v1 failed: ClientConnectorError: refused", False),
        ("", False),
    ],
)
def test_failures_are_classed_permanent_only_when_asking_again_cannot_help(message, permanent) -> None:
    assert is_permanent(message) is permanent


@pytest.mark.parametrize(
    "message, expected",
    [
        ("model call failed: HTTP 404 from http://127.0.0.1:45693: 404: Not Found", "@http://127.0.0.1:45693/v1"),
        (MISSING_KEY, "set OPENAI_API_KEY"),
        ("HTTP 401 from http://h/v1: bad key", "check the API key"),
        ("connection to http://127.0.0.1:9/v1 failed: ClientConnectorError", "is the server running"),
    ],
)
def test_each_common_failure_gets_a_hint_at_its_fix(message, expected) -> None:
    assert expected in (hint_for(message) or "")


def test_no_hint_is_made_up_for_an_unknown_failure() -> None:
    assert hint_for("solver failed: ValueError: boom") is None


class _RaisesTransient:
    """An adapter that fails as litellm does without an API key: a 'transient' 500 whose text says otherwise."""

    name = "raises"
    capabilities = frozenset({"chat"})

    def __init__(self, message: str) -> None:
        self.message = message
        self.calls = 0

    async def generate(self, request: GenerateRequest):
        self.calls += 1
        raise TransientError(self.message)


def test_a_missing_key_reported_as_transient_is_not_retried() -> None:
    inner = _RaisesTransient(MISSING_KEY)
    calling = CallingAdapter(inner, retry=RetryPolicy(max_retries=6, base_delay_s=0.01))
    with pytest.raises(AdapterError) as caught:
        asyncio.run(calling.generate(GenerateRequest(messages=(Message(role="user", content="hi"),))))
    assert inner.calls == 1 and "gave up" not in str(caught.value) and "Missing credentials" in str(caught.value)
    overloaded = _RaisesTransient("HTTP 503 from http://h/v1: overloaded")
    with pytest.raises(AdapterError, match="gave up after 2 retries"):
        asyncio.run(
            CallingAdapter(overloaded, retry=RetryPolicy(max_retries=2, base_delay_s=0.0)).generate(
                GenerateRequest(messages=(Message(role="user", content="hi"),))
            )
        )
    assert overloaded.calls == 3


def test_a_url_without_v1_fails_the_run_with_the_reason_and_the_fix(tmp_path: Path) -> None:
    with OpenAIServer() as server:
        base = server.base_url.removesuffix("/v1")
        done = frontier(*_run_args(f"openai-compatible/m@{base}", tmp_path / "run"))
    assert done.returncode == 1, done.stderr
    assert "first error (demo/arith" in done.stderr and "HTTP 404" in done.stderr
    assert f"hint: the server answered 404 at {base}" in done.stderr and f"@{base}/v1" in done.stderr
    assert "failed: all 3 sample(s) ended in error" in done.stderr
    records = [json.loads(line) for line in (tmp_path / "run" / "samples.jsonl").read_text().splitlines()]
    assert [r["retries"] for r in records] == [0, 0, 0]


@pytest.mark.slow
def test_max_error_rate_decides_the_exit_status_of_a_partly_failed_run(tmp_path: Path) -> None:
    with OpenAIServer(faults=FaultPlan(schedule={0: "500"})) as server:
        lenient = frontier(
            *_run_args(f"openai-compatible/m@{server.base_url}", tmp_path / "a"),
            "--max-retries",
            "0",
            "--concurrency",
            "1",
        )
    with OpenAIServer(faults=FaultPlan(schedule={0: "500"})) as server:
        strict = frontier(
            *_run_args(f"openai-compatible/m@{server.base_url}", tmp_path / "b"),
            "--max-retries",
            "0",
            "--concurrency",
            "1",
            "--max-error-rate",
            "0.2",
        )
    assert lenient.returncode == 0, lenient.stderr
    assert "first error" in lenient.stderr and "\nfailed:" not in lenient.stderr
    assert strict.returncode == 1, strict.stderr
    assert "failed: 1 of 3 sample(s) ended in error, more than --max-error-rate 0.2" in strict.stderr


def test_the_verdict_counts_only_errors_as_failures() -> None:
    assert judge_run([], None).exit_code == 0 and judge_run([], 0.0).lines(0.0) == []


# -- item 3: progress off a terminal; item 10: a finished rerun says so -------------------------------


@pytest.mark.slow
def test_progress_is_a_plain_line_at_a_steady_interval_when_stderr_is_a_file(tmp_path: Path) -> None:
    env = {**ENV, "FRONTIER_PROGRESS_INTERVAL": "0.3"}
    with OpenAIServer(latency=0.5) as server:
        done = frontier(
            *_run_args(f"openai-compatible/m@{server.base_url}", tmp_path / "run", limit=4),
            "--concurrency",
            "1",
            env=env,
        )
        again = frontier(*_run_args(f"openai-compatible/m@{server.base_url}", tmp_path / "run", limit=4), env=env)
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.startswith("progress: ")]
    assert lines[0] == "progress: 4 sample(s) to run"
    timed = lines[1:]
    assert len(timed) >= 4, lines  # 4 samples x 0.5 s at one every 0.3 s, plus the final line
    assert timed[-1].startswith("progress: 4/4 samples (100%)") and "errors 0" in timed[-1]
    assert all(" eta " in line and "tokens " in line and "/min" in line for line in timed)
    assert "\x1b[" not in done.stderr  # no terminal control codes in a log file
    assert again.returncode == 0
    assert "all 4 samples already logged; nothing to run" in again.stderr
    assert "progress: " not in again.stderr


def _run_in_pty(argv: list[str], env: dict[str, str], timeout: float = 120) -> tuple[int, str]:
    pid, fd = pty.fork()
    if pid == 0:  # the child: a real terminal is its stdin, stdout and stderr
        os.execve(sys.executable, [sys.executable, *argv], env)
    output = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            output += chunk
    else:
        os.kill(pid, 9)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), output.decode("utf-8", errors="replace")


def test_on_a_terminal_the_bar_is_shown_and_no_plain_lines(tmp_path: Path) -> None:
    env = {**ENV, "FRONTIER_PROGRESS_INTERVAL": "0.2", "COLUMNS": "120"}
    with OpenAIServer(latency=0.3) as server:
        status, output = _run_in_pty(
            ["-m", "harness", *_run_args(f"openai-compatible/m@{server.base_url}", tmp_path / "run")], env
        )
    assert status == 0, output
    assert "samples" in output and "3/3" in output
    assert "progress: " not in output


# -- item 8: failed runs leave nothing behind -----------------------------------------------------------


@pytest.mark.parametrize(
    "args, message",
    [
        (["--task", "demo/arith", "--model", "local/gemma-3-27m"], "unknown local model 'gemma-3-27m'"),
        (["--task", "demo/arith", "--model", "local/missing/model.gguf"], "local model file not found"),
        (
            ["--task", "confiqa/qa", "-T", "data=/nonexistent/ConFiQA-QA.json", "--model", "builtin/oracle"],
            "ConFiQA data not found",
        ),
        (["--task", "longcot/mini", "-T", "data=hub:someone/nothing", "--model", "builtin/oracle"], "hub is offline"),
    ],
)
def test_a_run_that_cannot_start_leaves_no_run_directory(tmp_path: Path, args, message) -> None:
    out = tmp_path / "run"
    done = frontier("run", *args, "--limit", "1", "--out", str(out))
    assert done.returncode == 2 and message in done.stderr, done.stderr
    assert not out.exists()


# -- item 10: -T lists the valid arguments; frontier serve logs each request ------------------------------


def test_an_unknown_task_argument_lists_the_valid_ones(tmp_path: Path) -> None:
    done = frontier(
        "run", "--task", "demo/arith", "-T", "nn=5", "--model", "builtin/oracle", "--out", str(tmp_path / "run")
    )
    assert done.returncode == 2
    assert "-T nn: no such argument; did you mean n? (valid arguments: n, seed, steps" in done.stderr
    assert not (tmp_path / "run").exists()


def _free_port() -> int:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_frontier_serve_logs_one_line_per_request(tmp_path: Path) -> None:
    import urllib.error
    import urllib.request

    port, log = _free_port(), tmp_path / "serve.log"
    with OpenAIServer() as upstream, log.open("w") as sink:
        server = subprocess.Popen(
            [sys.executable, "-m", "harness", "serve", f"openai-compatible/m@{upstream.base_url}", "--port", str(port)],
            stdout=sink,
            stderr=sink,
            env=ENV,
        )
        try:
            deadline = time.monotonic() + 60
            while "serving" not in log.read_text() and time.monotonic() < deadline:
                assert server.poll() is None, log.read_text()
                time.sleep(0.1)
            assert "serving" in log.read_text(), log.read_text()  # announced once the port listens
            base = f"http://127.0.0.1:{port}/v1"
            body = json.dumps({"model": "m", "messages": [{"role": "user", "content": "hi"}]}).encode()
            with urllib.request.urlopen(urllib.request.Request(base + "/chat/completions", data=body), timeout=30):
                pass
            with pytest.raises(urllib.error.HTTPError):
                urllib.request.urlopen(
                    urllib.request.Request(base + "/chat/completions", data=b"{not json"), timeout=30
                )
            time.sleep(0.3)
        finally:
            server.terminate()
            server.wait(30)
    lines = [line for line in log.read_text().splitlines() if "/v1/chat/completions" in line]
    assert len(lines) == 2, log.read_text()
    assert " POST /v1/chat/completions 200 " in lines[0] and " POST /v1/chat/completions 400 " in lines[1]


def test_the_package_metadata_uses_an_spdx_licence_without_a_setuptools_warning(tmp_path: Path) -> None:
    root = Path(__file__).resolve().parents[2]
    build = subprocess.run(
        [
            sys.executable,
            "-W",
            "always",
            "-c",
            "import sys; from setuptools import build_meta; "
            "print(build_meta.prepare_metadata_for_build_wheel(sys.argv[1]))",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        cwd=root,
        timeout=120,
    )
    assert build.returncode == 0, build.stderr
    assert "project.license" not in build.stderr and "License classifiers" not in build.stderr
    metadata = (tmp_path / build.stdout.strip().splitlines()[-1] / "METADATA").read_text()
    assert "License-Expression: Apache-2.0" in metadata


@pytest.mark.slow
def test_an_unknown_litellm_provider_is_refused_without_importing_litellm() -> None:
    probe = (
        "import sys\nfrom harness.adapters import resolve_adapter\nfrom harness.errors import ConfigError\n"
        "try:\n    resolve_adapter('opneai/gpt-4o')\nexcept ConfigError as exc:\n    print('refused:', exc)\n"
        "print('litellm imported:', 'litellm' in sys.modules)\n"
        "from harness.litellm_providers import known_providers\nimport litellm\n"
        "print('same names:', known_providers() == {str(getattr(p, 'value', p)) for p in litellm.provider_list})\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=ENV, timeout=180)
    assert "refused: unknown adapter 'opneai/gpt-4o'" in done.stdout, done.stderr
    assert "litellm imported: False" in done.stdout
    assert "same names: True" in done.stdout
