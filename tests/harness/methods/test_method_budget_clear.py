"""Token budgets (native controls, budget forcing), CLEAR over a planned batch, and `frontier sweep`."""

from __future__ import annotations

import asyncio
import json
import zlib
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from harness.adapters import resolve_adapter
from harness.errors import ConfigError
from harness.methods.budget import FORCE_PROMPT, TokenBudget
from harness.methods.clear.method import Clear
from harness.methods.controls import reasoning_control
from harness.methods.planning import plan_methods
from harness.registry import Registered, resolve_task
from harness.runner import run_items
from harness.testing.openai_server import OpenAIServer, Reply
from harness.testing.responders import solve_arith
from harness.types import SampleResult

N = 12


def need_of(prompt: str) -> int:
    """How many words of reasoning the fake thinker needs for a problem: 20 to 200."""
    return 20 + zlib.crc32(prompt.encode()) % 181


def thinker(body: dict[str, Any]) -> Reply:
    """Reasons for need_of(problem) words, then answers; cut at max_tokens words. Forced early, it guesses wrong."""
    users = [str(m.get("content") or "") for m in body.get("messages", []) if m.get("role") == "user"]
    answer = solve_arith(users[0]) if users else None
    if answer is None:
        return Reply(text="?")
    if users[-1] == FORCE_PROMPT:
        return Reply(text=f"ANSWER: {answer + 1}")
    words = ["think"] * need_of(users[0])
    limit = body.get("max_tokens")
    if limit is not None and limit < len(words) + 2:
        return Reply(text=" ".join(words[:limit]), finish_reason="length")
    return Reply(text=" ".join(words) + f"\nANSWER: {answer}")


async def run_method(task: Any, method: Any, plan: bool = False) -> list[SampleResult]:
    """The runner's path (``run_items``), planning the batch first when asked."""
    samples = list(task.samples())
    if plan:
        assert await plan_methods(method, samples, task=task) == 1
    results: list[SampleResult] = []
    try:
        await run_items(((task, s, task.settings) for s in samples), method, 0, 4, results.append)
    finally:
        await method.aclose()
    return results


def _model(server: OpenAIServer) -> Any:
    return resolve_adapter("openai-compatible/test-model@" + server.base_url)


def test_a_roomy_budget_sets_max_tokens_and_needs_no_forcing() -> None:
    task = resolve_task("demo/arith").create(n=N)
    with OpenAIServer(thinker) as server:
        results = asyncio.run(run_method(task, TokenBudget(_model(server), tokens="400", answer_tokens="32")))
        assert [b["max_tokens"] for b in server.requests] == [368] * N
    assert all(r.score.correct and len(r.calls) == 1 for r in results)


def test_a_tight_budget_is_forced_to_answer_within_the_budget() -> None:
    task = resolve_task("demo/arith").create(n=N)
    with OpenAIServer(thinker) as server:
        results = asyncio.run(run_method(task, TokenBudget(_model(server), tokens="30", answer_tokens="10")))
    for result in results:
        roles = [c.role for c in result.calls]
        assert roles == ["model", "budget_force"]
        assert result.usage.output_tokens <= 30 and result.score.outcome == "scored"
        assert result.output.text.startswith("think") and "ANSWER:" in result.output.text


def test_budget_parameters_are_validated() -> None:
    inner = resolve_adapter("openai-compatible/m@http://127.0.0.1:9/v1")
    for params, named in (
        ({}, "'tokens'"),
        ({"tokens": "0"}, "'tokens'"),
        ({"tokens": "ten"}, "'tokens'"),
        ({"tokens": "10", "answer": "3"}, "answer"),
    ):
        with pytest.raises(ConfigError, match=named):
            TokenBudget(inner, **params)


@pytest.mark.parametrize(
    ("name", "capabilities", "tokens", "control", "field"),
    [
        ("anthropic/claude-sonnet-4-5", {"reasoning_budget"}, 4096, "anthropic_thinking", "reasoning_budget"),
        ("anthropic/claude-sonnet-4-5", {"reasoning_budget"}, 512, "budget_forcing", None),
        ("gemini/gemini-2.5-flash", {"reasoning_budget"}, 2048, "gemini_thinking_budget", "reasoning_budget"),
        ("openai/o4-mini", {"reasoning_budget"}, 20000, "openai_reasoning_effort", "reasoning_effort"),
        ("openai-compatible/Qwen3-8B@http://h/v1", {"chat"}, 100, "qwen3_thinking_off", "chat_template_kwargs"),
        ("hosted_vllm/Qwen/Qwen3-8B", {"reasoning_budget"}, 4096, "qwen3_enable_thinking", "extra_body"),
        ("openai-compatible/llama@http://h/v1", {"chat"}, 4096, "budget_forcing", None),
    ],
)
def test_native_reasoning_controls(
    name: str, capabilities: set[str], tokens: int, control: str, field: str | None
) -> None:
    chosen = reasoning_control(name, frozenset(capabilities), tokens, 64)
    assert chosen.name == control
    if field == "reasoning_budget":
        assert chosen.updates == {"reasoning_budget": tokens - 64}
    elif field is not None:
        assert field in chosen.extra
    if control == "openai_reasoning_effort":
        assert chosen.extra == {"reasoning_effort": "high"}


def _tau_file(tmp_path: Path, task: Any) -> Path:
    path = tmp_path / "taus.json"
    path.write_text(json.dumps({s.id: need_of(s.input) for s in task.samples()}))
    return path


def _clear_run(server: OpenAIServer, tmp_path: Path, budget: int, **params: str) -> list[SampleResult]:
    task = resolve_task("demo/arith").create(n=N)
    method = Clear(
        _model(server),
        budget=str(budget),
        tau=f"file:{_tau_file(tmp_path, task)}",
        alpha=str(0.95 / 15**2),
        beta=str(1 / 15),
        answer_tokens="8",
        **params,
    )
    return asyncio.run(run_method(task, method, plan=True))


def test_clear_keeps_the_batch_within_budget_and_beats_uniform_when_scarce(tmp_path: Path) -> None:
    budget = 700
    with OpenAIServer(thinker) as server:
        clear = _clear_run(server, tmp_path, budget)
        clear_requests = len(server.requests)
        uniform = _clear_run(server, tmp_path, budget, allocator="uniform")
    assert sum(r.usage.output_tokens for r in clear) <= budget
    assert sum(r.usage.output_tokens for r in uniform) <= budget
    abandoned = [r for r in clear if not r.calls]
    assert abandoned and all(r.output.text == "" and r.score.outcome == "unscored" for r in abandoned)
    assert clear_requests == sum(len(r.calls) for r in clear)
    clear_right = sum(bool(r.score.correct) for r in clear)
    assert clear_right >= 2 and clear_right >= 2 * sum(bool(r.score.correct) for r in uniform)


def test_clear_without_a_plan_fails_before_spending_tokens(tmp_path: Path) -> None:
    task = resolve_task("demo/arith").create(n=3)
    with OpenAIServer(thinker) as server:
        with pytest.raises(ConfigError, match="planned"):
            asyncio.run(run_method(task, Clear(_model(server), budget="100")))
        assert server.requests == []


def test_clear_parameters_are_validated(tmp_path: Path) -> None:
    inner = resolve_adapter("openai-compatible/m@http://127.0.0.1:9/v1")
    for params, named in (
        ({}, "'budget'"),
        ({"budget": "1e3", "tau": "guess"}, "'tau'"),
        ({"budget": "1e3", "alpha": "-1"}, "'alpha'"),
        ({"budget": "1e3", "allocator": "best"}, "'allocator'"),
        ({"budget": "1e3", "tau": "file:/nonexistent.json"}, "'tau'"),
    ):
        with pytest.raises(ConfigError, match=named):
            Clear(inner, **params)
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"arith-0-4-0": "lots"}))
    task = resolve_task("demo/arith").create(n=1)
    with pytest.raises(ConfigError, match="no usable"):
        asyncio.run(Clear(inner, budget="10", tau=f"file:{bad}").plan(list(task.samples())))


def test_sweep_writes_one_run_per_budget_and_an_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from harness import registry
    from harness.cli.sweep import sweep_command

    monkeypatch.setitem(
        registry.BUILTIN_METHODS, "budget", Registered("budget", "token budget", "harness.methods.budget:TokenBudget")
    )
    with OpenAIServer(thinker) as server:
        outcome = CliRunner().invoke(
            sweep_command,
            [
                "--task",
                "demo/arith",
                "-T",
                "n=6",
                "--model",
                "openai-compatible/m@" + server.base_url,
                "--method",
                "budget:answer_tokens=8",
                "--budget-param",
                "tokens",
                "--budgets",
                "30,3e2",
                "--out",
                str(tmp_path / "sweep"),
                "--no-cache",
                "--no-progress",
            ],
        )
    assert outcome.exit_code == 0, outcome.output
    index = json.loads((tmp_path / "sweep" / "sweep.json").read_text())
    points = index["points"]
    assert [p["budget"] for p in points] == [30, 300]
    assert all((Path(p["run_dir"]) / "summary.json").exists() for p in points)
    low, high = (p["tasks"]["demo/arith"] for p in points)
    assert high["accuracy"] > low["accuracy"] and low["output_tokens"] <= 30 * 6
    config = json.loads((Path(points[0]["run_dir"]) / "config.json").read_text())
    assert config["methods"] == ["budget:answer_tokens=8,tokens=30"]
    (step,) = index["steps"]  # the neighbouring budgets compared item by item (issue 39 item 5)
    row = step["tasks"]["demo/arith"]
    assert (step["from"], step["to"], row["n_paired"]) == (30, 300, 6)
    assert row["diff"] == pytest.approx(high["accuracy"] - low["accuracy"]) and 0 < row["p_adjusted"] <= 1
    assert "B=30 -> B=300: demo/arith" in outcome.output


def test_sweep_rejects_bad_budgets() -> None:
    from harness.cli.sweep_points import parse_budgets

    assert parse_budgets("1e3, 300,1e3") == [300, 1000]
    for text in ("", "abc", "1.5", "-3"):
        with pytest.raises(ConfigError, match="--budgets"):
            parse_budgets(text)
