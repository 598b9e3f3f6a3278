"""Issue 18, silent wrong scores: tool arguments kept, bad answers never cached, a resume over changed data refused,
bodies capped, max_tokens held, each text stored once, retries counted right. All over real HTTP on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from harness.adapters import resolve_adapter
from harness.cache import ResponseCache
from harness.calls import CallingAdapter, RetryPolicy
from harness.context import SampleContext, current_sample
from harness.errors import AdapterError, ConfigError
from harness.plan import RunPlan, TaskPlan
from harness.runner import RunOptions, execute
from harness.store import RunStore
from harness.testing.openai_server import FaultPlan, OpenAIServer, Reply
from harness.testing.responders import arith_responder
from harness.types import GenerateRequest, Message, Sample

FAST = RetryPolicy(max_retries=2, base_delay_s=0.001, max_delay_s=0.01)
TOOL = {"type": "function", "function": {"name": "lookup", "parameters": {"type": "object"}}}


def _request(**kwargs) -> GenerateRequest:
    return GenerateRequest(messages=(Message(role="user", content="hi"),), temperature=0.0, **kwargs)


async def _generate(adapter, request: GenerateRequest):
    try:
        return await adapter.generate(request)
    finally:
        close = getattr(adapter, "aclose", None)
        if close is not None:
            await close()


@pytest.mark.parametrize("prefix", ["openai-compatible/m@", "openai/m@"])
def test_tool_arguments_sent_as_a_json_object_reach_the_tool_and_the_log(prefix: str) -> None:
    sent = {"order_id": "#W123", "items": [1, 2], "note": "é"}

    def respond(body: dict) -> Reply:
        return Reply(tool_calls=[{"id": "c1", "name": "lookup", "arguments": sent}])

    with OpenAIServer(respond) as server:
        generation = asyncio.run(_generate(resolve_adapter(prefix + server.base_url), _request(tools=(TOOL,))))
    assert json.loads(generation.tool_calls[0].arguments) == sent
    if prefix.startswith("openai-compatible"):  # litellm turns the object into text itself, in its own layout
        assert generation.tool_calls[0].arguments == json.dumps(
            sent, sort_keys=True, separators=(",", ":"), ensure_ascii=False
        )


def _flaky_then_healthy(bad: dict) -> tuple[list[bool], object]:
    """A responder that answers badly while ``healthy[0]`` is False, then solves the arithmetic."""
    healthy = [False]
    good = arith_responder(wrong_every=0)

    def respond(body: dict) -> Reply:
        return good(body) if healthy[0] else Reply(**bad)

    return healthy, respond


@pytest.mark.parametrize(
    "bad",
    [{"text": ""}, {"text": "   "}, {"text": "x", "finish_reason": "error"}],
    ids=["content-null", "blank", "error-finish"],
)
def test_a_transient_bad_200_is_not_cached_and_a_healthy_rerun_scores(tmp_path: Path, bad: dict) -> None:
    healthy, respond = _flaky_then_healthy(bad)
    options = RunOptions(
        concurrency=4, retry=FAST, request_timeout_s=5, progress=False, cache_path=tmp_path / "cache.sqlite"
    )
    with OpenAIServer(respond) as server:
        plan = RunPlan(model="openai-compatible/m@" + server.base_url, tasks=(TaskPlan("demo/arith", {"n": 6}),))
        broken = asyncio.run(execute(plan, tmp_path / "broken", options))
        healthy[0] = True
        fixed = asyncio.run(execute(plan, tmp_path / "fixed", options))
        again = asyncio.run(execute(plan, tmp_path / "again", options))
    assert broken.tasks["demo/arith"].counts["scored"] == 0
    assert fixed.tasks["demo/arith"].metrics["accuracy"].value == 1.0
    assert fixed.tasks["demo/arith"].cached_calls == 0 and fixed.tasks["demo/arith"].calls == 6
    assert again.tasks["demo/arith"].cached_calls == 6 and len(server.requests) == 12


def test_a_bad_entry_already_in_the_cache_is_dropped_not_served(tmp_path: Path) -> None:
    from harness.types import Generation

    cache = ResponseCache(tmp_path / "c.sqlite")
    cache._db.execute("INSERT INTO responses VALUES (?, ?, ?, 0)", ("a", "k", Generation(text="").model_dump_json()))
    assert cache.get("a", "k") is None
    cache.put("a", "k", Generation(text="42"))
    assert cache.get("a", "k").text == "42"


def _cybermetric(path: Path, solutions: list[str]) -> None:
    questions = [
        {"question": f"Question {i}?", "answers": {"A": "a", "B": "b", "C": "c", "D": "d"}, "solution": s}
        for i, s in enumerate(solutions)
    ]
    path.write_text(json.dumps({"questions": questions}))


def test_a_resume_over_edited_data_is_refused_naming_the_task(tmp_path: Path) -> None:
    data = tmp_path / "cm.json"
    _cybermetric(data, ["A", "B", "C", "D"])
    plan = RunPlan(
        model="builtin/oracle",
        tasks=(TaskPlan("cyber/cybermetric", {"data": str(data)}), TaskPlan("demo/arith", {"n": 3})),
    )
    options = RunOptions(progress=False)
    asyncio.run(execute(plan, tmp_path / "run", options))
    before = (tmp_path / "run" / "samples.jsonl").read_bytes()
    asyncio.run(execute(plan, tmp_path / "run", options))  # same data: resumes
    _cybermetric(data, ["A", "B", "D", "D"])
    with pytest.raises(ConfigError, match=r"samples of task cyber/cybermetric changed"):
        asyncio.run(execute(plan, tmp_path / "run", options))
    assert (tmp_path / "run" / "samples.jsonl").read_bytes() == before
    config = json.loads((tmp_path / "run" / "config.json").read_text())
    assert set(config["samples"]) == {"cyber/cybermetric", "demo/arith"}


def test_an_oversized_body_is_cut_at_the_cap_and_recorded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FRONTIER_MAX_RESPONSE_BYTES", "65536")
    with OpenAIServer(lambda body: Reply(text="word " * 100_000)) as server:
        adapter = resolve_adapter("openai-compatible/m@" + server.base_url)
        with pytest.raises(AdapterError, match=r"65,536-byte cap"):
            asyncio.run(_generate(adapter, _request()))


def test_max_tokens_is_held_client_side_when_the_server_ignores_it() -> None:
    full = " ".join(f"w{i}" for i in range(1000))
    with OpenAIServer(lambda body: Reply(text=full)) as server:
        adapter = resolve_adapter("openai-compatible/m@" + server.base_url)
        generation = asyncio.run(_generate(adapter, _request(max_tokens=10)))
    assert generation.finish_reason == "length" and generation.usage.output_tokens == 1000
    assert full.startswith(generation.text) and 0 < len(generation.text) <= len(full) // 100


def test_each_text_is_stored_once_per_log_line(tmp_path: Path) -> None:
    answer = "ANSWER: 7 " + "padding " * 500
    with OpenAIServer(lambda body: Reply(text=answer)) as server:
        plan = RunPlan(model="openai-compatible/m@" + server.base_url, tasks=(TaskPlan("demo/arith", {"n": 2}),))
        asyncio.run(execute(plan, tmp_path / "run", RunOptions(progress=False, retry=FAST)))
    line = (tmp_path / "run" / "samples.jsonl").read_text().splitlines()[0]
    assert line.count(json.dumps(answer)) == 1 and json.loads(line)["calls"][0]["generation"]["text"] is None
    result = next(RunStore(tmp_path / "run").results())
    assert result.calls[0].generation.text == result.output.text == answer


def test_retry_count_in_the_record_matches_the_error_and_the_requests() -> None:
    with OpenAIServer(faults=FaultPlan(rates={"500": 1.0})) as server:
        model = CallingAdapter(resolve_adapter("openai-compatible/m@" + server.base_url), retry=FAST)
        context = SampleContext(task=None, sample=Sample(id="s", input="x"), seed=0)  # type: ignore[arg-type]
        token = current_sample.set(context)
        try:
            with pytest.raises(AdapterError, match="gave up after 2 retries"):
                asyncio.run(_generate(model, _request()))
        finally:
            current_sample.reset(token)
    assert context.retries == 2 and len(server.requests) == 3


def test_a_response_nested_too_deeply_is_a_clear_adapter_error() -> None:
    from aiohttp import web

    from harness.testing.openai_server import OpenAIServer as Server

    class DeepServer(Server):
        def build_app(self) -> web.Application:
            app = web.Application()

            async def deep(request: web.Request) -> web.Response:
                return web.Response(
                    text='{"choices": ' + "[" * 100_000 + "]" * 100_000 + "}", content_type="application/json"
                )

            app.router.add_post("/v1/chat/completions", deep)
            return app

    with DeepServer() as server, pytest.raises(AdapterError, match="nested too deeply"):
        asyncio.run(_generate(resolve_adapter("openai-compatible/m@" + server.base_url), _request()))


def test_max_tokens_enforcement_leaves_honest_and_multi_choice_answers_alone() -> None:
    from harness.adapters.openai_format import enforce_max_tokens
    from harness.types import Generation, Usage

    honest = Generation(text="one two three", usage=Usage(output_tokens=3), finish_reason="stop")
    assert enforce_max_tokens(honest, 3) == honest
    several = Generation(text="a b c d e", alternatives=("a b c d e", "a b c d e"), usage=Usage(output_tokens=15))
    assert enforce_max_tokens(several, 5) == several  # usage sums the three choices
    thinking = Generation(text="short", usage=Usage(output_tokens=900, reasoning_tokens=895))
    assert enforce_max_tokens(thinking, 10) == thinking
