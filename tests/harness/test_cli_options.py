"""`frontier run`/`sweep`/`serve` share their options: defaults from RunOptions, -M reaching the adapter."""

from __future__ import annotations

import json
from pathlib import Path

import click
from click.testing import CliRunner

from harness.cli.options import parse_option_values, path_slug
from harness.cli.run import run_command
from harness.cli.serve import serve_command
from harness.cli.sweep import sweep_command
from harness.run_options import DEFAULT_TIMEOUT_S, RetryPolicy, RunOptions
from harness.testing.openai_server import OpenAIServer
from harness.testing.responders import arith_responder


def _defaults(command: click.Command) -> dict[str, object]:
    return {param.name: param.default for param in command.params if param.name}


def test_run_and_sweep_show_the_defaults_of_run_options() -> None:
    expected = {
        "concurrency": RunOptions().concurrency,
        "timeout": DEFAULT_TIMEOUT_S,
        "max_retries": RetryPolicy().max_retries,
        "retry_base": RetryPolicy().base_delay_s,
        "cache": True,
        "force_cache": False,
        "progress": True,
    }
    for command in (run_command, sweep_command):
        defaults = _defaults(command)
        assert {name: defaults[name] for name in expected} == expected
        assert {"tasks", "model", "model_option", "task_arg", "limit", "seed", "max_tokens", "temperature"} <= set(
            defaults
        )
    assert "model_option" in _defaults(serve_command)


def test_model_options_reach_the_adapter_and_the_config(tmp_path: Path) -> None:
    run = tmp_path / "run"
    with OpenAIServer(arith_responder()) as server:
        args = ["--task", "demo/arith", "--limit", "3", "--no-cache", "--no-progress", "--out", str(run)]
        model = ["--model", f"openai-compatible/m@{server.base_url}", "-M", "max_connections=2"]
        done = CliRunner().invoke(run_command, [*args, *model])
        assert done.exit_code == 0, done.output
        config = json.loads((run / "config.json").read_text())
        assert config["model_options"] == {"max_connections": 2}
        again = CliRunner().invoke(run_command, ["--resume", "--out", str(run), "--no-progress"])
        assert again.exit_code == 0, again.output
        assert len(server.requests) == 3
    assert len((run / "samples.jsonl").read_text().splitlines()) == 3


def test_an_option_the_adapter_does_not_take_is_refused_before_a_run_directory_exists(tmp_path: Path) -> None:
    run = tmp_path / "run"
    done = CliRunner().invoke(
        run_command,
        ["--task", "demo/arith", "--model", "builtin/oracle", "-M", "n_ctx=4096", "--out", str(run), "--no-cache"],
    )
    assert done.exit_code != 0
    assert "unknown option(s) for builtin adapters: n_ctx" in str(done.exception or done.output)
    assert not run.exists()


def test_without_model_options_the_config_is_as_before(tmp_path: Path) -> None:
    run = tmp_path / "run"
    done = CliRunner().invoke(
        run_command,
        ["--task", "demo/arith", "--model", "builtin/oracle", "--limit", "2", "--out", str(run), "--no-cache"],
    )
    assert done.exit_code == 0, done.output
    assert "model_options" not in json.loads((run / "config.json").read_text())


def test_option_values_and_slugs() -> None:
    assert parse_option_values(("n_ctx=4096", "flag=true", "name=abc", "deep=" + "[" * 5000)) == {
        "n_ctx": 4096,
        "flag": True,
        "name": "abc",
        "deep": "[" * 5000,
    }
    assert (
        path_slug("openai-compatible/qwen3@http://127.0.0.1:8000/v1")
        == "openai-compatible-qwen3-http-127.0.0.1-8000-v1"
    )
    assert path_slug("clear:allocator=uniform") == "clear-allocator=uniform"
    assert len(path_slug("x" * 500)) == 60
