"""Hostile replies from a real loopback server: lone UTF-16 surrogates in text, tool names and tool
arguments (issue 37.2), and absurd token usage (issue 37.7). The run logs what was sent and scores it."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from harness.calls import RetryPolicy
from harness.importing import import_outputs
from harness.plan import RunPlan, TaskPlan
from harness.registry import resolve_task
from harness.runner import RunOptions, execute
from harness.store import RunStore
from harness.testing.openai_server import OpenAIServer, Reply
from harness.testing.responders import solve_arith

ARITH = TaskPlan("demo/arith", {"n": 4})


def _surrogate_responder(body: dict[str, Any]) -> Reply:
    prompt = str(body["messages"][-1]["content"])
    return Reply(
        text=f"so \ud800\nANSWER: {solve_arith(prompt)}",
        tool_calls=[{"name": "look\udfff", "arguments": '{"q": "\ud83d"}'}],
    )


def _options(tmp_path: Path, cache: bool) -> RunOptions:
    return RunOptions(
        concurrency=2,
        retry=RetryPolicy(max_retries=1, base_delay_s=0.001, max_delay_s=0.01),
        request_timeout_s=10,
        progress=False,
        cache_path=tmp_path / "cache.sqlite" if cache else None,
    )


@pytest.mark.parametrize("cache", [False, True])
def test_lone_surrogates_are_logged_escaped_and_scored(tmp_path: Path, cache: bool) -> None:
    with OpenAIServer(_surrogate_responder) as server:
        plan = RunPlan(model=f"openai-compatible/m@{server.base_url}", tasks=(ARITH,))
        summary = asyncio.run(execute(plan, tmp_path / "run", _options(tmp_path, cache)))
        if cache:
            again = asyncio.run(execute(plan, tmp_path / "again", _options(tmp_path, cache)))
            assert again.tasks["demo/arith"].cached_calls == 4
    assert summary.tasks["demo/arith"].counts == {"scored": 4, "unscored": 0, "error": 0}
    assert summary.tasks["demo/arith"].metrics["accuracy"].value == 1.0
    raw = (tmp_path / "run" / "samples.jsonl").read_text(encoding="utf-8")
    assert "\\\\ud800" in raw and "\\\\udfff" in raw and "\\\\ud83d" in raw
    result = next(RunStore(tmp_path / "run").results())
    assert result.output.text.startswith("so \\ud800\n")
    call = result.calls[0].generation.tool_calls[0]
    assert call.name == "look\\udfff" and json.loads(call.arguments) == {"q": "\ud83d"}


def test_import_keeps_a_lone_surrogate_escaped(tmp_path: Path) -> None:
    samples = list(resolve_task("demo/arith").create(n=4).samples())
    source = tmp_path / "out.jsonl"
    source.write_text(
        "".join(json.dumps({"row": i, "text": f"\ud800\nANSWER: {s.target}"}) + "\n" for i, s in enumerate(samples)),
        encoding="utf-8",
    )
    report = import_outputs(ARITH, source, tmp_path / "run")
    assert report.summary.tasks["demo/arith"].counts["scored"] == 4
    assert next(r.output.text for r in RunStore(tmp_path / "run").results()).startswith("\\ud800")
    shown = subprocess.run(
        [sys.executable, "-m", "harness", "show", str(tmp_path / "run")], capture_output=True, text=True, timeout=120
    )
    assert shown.returncode == 0 and "Traceback" not in shown.stderr


class _UsageServer(OpenAIServer):
    """Answers every chat request correctly, with the ``usage`` object it was given."""

    def __init__(self, usage: object, prefix: str = "") -> None:
        super().__init__()
        self.usage = usage
        self.prefix = prefix

    def build_app(self) -> Any:
        from aiohttp import web

        async def chat(request: web.Request) -> web.Response:
            body = await request.json()
            text = f"{self.prefix}ANSWER: {solve_arith(str(body['messages'][-1]['content']))}"
            choice = {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}
            return web.json_response({"choices": [choice], "model": "m", "usage": self.usage})

        app = web.Application()
        app.router.add_post("/v1/chat/completions", chat)
        return app


@pytest.mark.parametrize(
    "usage",
    [
        {"prompt_tokens": -100000000, "completion_tokens": 5},
        {"prompt_tokens": 10, "completion_tokens": 1e300},
        {"prompt_tokens": 10, "completion_tokens": 12.5},
        {"prompt_tokens": "10", "completion_tokens": 5},
        {"prompt_tokens": 10, "completion_tokens": 5, "completion_tokens_details": {"reasoning_tokens": -1}},
        [1, 2],
    ],
)
def test_absurd_usage_is_unknown_and_stays_out_of_totals_and_plots(tmp_path: Path, usage: object) -> None:
    from leaderboard.aggregate import cost_and_score
    from leaderboard.submission import build_submission

    with _UsageServer(usage) as server:
        plan = RunPlan(model=f"openai-compatible/m@{server.base_url}", tasks=(ARITH,))
        summary = asyncio.run(execute(plan, tmp_path / "run", _options(tmp_path, cache=False)))
    task = summary.tasks["demo/arith"]
    assert task.calls == 4 and task.metrics["accuracy"].value == 1.0
    assert task.usage.unknown and task.usage.total_tokens == 0
    results = list(RunStore(tmp_path / "run").results())
    assert all(r.calls[0].generation.usage.unknown and r.output.text.startswith("ANSWER:") for r in results)
    entry = build_submission([tmp_path / "run"])["tasks"]["demo/arith"]
    assert entry["usage"]["unknown"] is True and cost_and_score(entry)["tokens"] is None


def test_believable_usage_is_kept_as_reported(tmp_path: Path) -> None:
    usage = {"prompt_tokens": 10, "completion_tokens": 5.0, "prompt_tokens_details": {"cached_tokens": 2}}
    with _UsageServer(usage) as server:
        plan = RunPlan(model=f"openai-compatible/m@{server.base_url}", tasks=(ARITH,))
        summary = asyncio.run(execute(plan, tmp_path / "run", _options(tmp_path, cache=False)))
    task = summary.tasks["demo/arith"]
    assert (task.usage.input_tokens, task.usage.output_tokens, task.usage.cached_tokens) == (40, 20, 8)
    assert not task.usage.unknown and "unknown" not in (tmp_path / "run" / "summary.json").read_text()


def test_a_report_places_a_run_of_unknown_usage_on_no_token_plot(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from leaderboard.cli import report_command

    for name, usage in (
        ("bad", {"prompt_tokens": -100000000}),
        ("good", {"prompt_tokens": 10, "completion_tokens": 5}),
    ):
        with _UsageServer(usage) as server:
            plan = RunPlan(model=f"openai-compatible/{name}@{server.base_url}", tasks=(ARITH,))
            asyncio.run(execute(plan, tmp_path / name, _options(tmp_path, cache=False)))
    built = CliRunner().invoke(
        report_command, [str(tmp_path / "bad"), str(tmp_path / "good"), "-o", str(tmp_path / "site")]
    )
    assert built.exit_code == 0, built.output
    page = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert '<td data-sort="60.0">60</td>' in page and ">nan<" not in page.lower()


@pytest.mark.parametrize("cache", ["--cache", "--no-cache"])
def test_frontier_run_and_show_on_hostile_replies_print_no_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], cache: str
) -> None:
    from harness.cli.main import main

    monkeypatch.setenv("FRONTIER_CACHE_DIR", str(tmp_path / "cache"))
    with _UsageServer({"prompt_tokens": -100000000, "completion_tokens": 1e300}, prefix="\ud800\n") as server:
        model = f"openai-compatible/m@{server.base_url}"
        args = ["run", "--task", "demo/arith", "-T", "n=3", "--model", model, cache, "--no-progress"]
        main([*args, "--out", str(tmp_path / "run")])
    main(["show", str(tmp_path / "run")])
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err
    results = list(RunStore(tmp_path / "run").results())
    assert [r.score.correct for r in results] == [True] * 3
    assert all(r.output.text.startswith("\\ud800\n") and r.usage.unknown for r in results)


def test_a_token_budget_charges_a_call_of_unknown_usage_all_it_was_allowed() -> None:
    from harness.adapters import resolve_adapter
    from harness.methods.budget import TokenBudget
    from harness.runner import run_items

    task = resolve_task("demo/arith").create(n=2)
    results: list[Any] = []

    async def run(method: Any) -> None:
        try:
            await run_items(((task, s, task.settings) for s in task.samples()), method, 0, 2, results.append)
        finally:
            await method.aclose()

    for usage in ({"completion_tokens": -5}, {"completion_tokens": 7}):
        with _UsageServer(usage) as server:
            model = resolve_adapter(f"openai-compatible/m@{server.base_url}")
            asyncio.run(run(TokenBudget(model, tokens="400", answer_tokens="32")))
    assert [r.method_data["budget"]["used"] for r in results] == [368, 368, 7, 7]
    assert all(r.score.correct for r in results)
