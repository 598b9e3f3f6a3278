"""The run's call settings: requests bounded per adapter, auxiliary models called as the run's model is."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from harness.adapters import resolve_adapter
from harness.adapters.openai_compatible import OpenAICompatibleAdapter
from harness.calls import (
    CallingAdapter,
    CallSettings,
    RetryPolicy,
    active_call_settings,
    auxiliary_model,
    using_call_settings,
)
from harness.errors import AdapterError, ConfigError
from harness.plan import RunPlan, TaskPlan
from harness.run_options import RunOptions
from harness.runner import evaluate, execute
from harness.task import SolveContext, Task
from harness.testing.counting_server import CountingServer
from harness.testing.openai_server import FaultPlan, OpenAIServer
from harness.types import GenerateRequest, Message, Output, Sample, Score

FAST = RetryPolicy(max_retries=3, base_delay_s=0.001, max_delay_s=0.01)


def _request(text: str = "hello") -> GenerateRequest:
    return GenerateRequest(messages=(Message(role="user", content=text),), max_tokens=8, temperature=0.0)


@pytest.mark.parametrize("concurrency", [1, 2])
def test_best_of_n_puts_at_most_concurrency_requests_in_flight(tmp_path: Path, concurrency: int) -> None:
    with CountingServer(latency=0.05) as server:
        plan = RunPlan(
            model=f"openai-compatible/counted@{server.base_url}",
            tasks=(TaskPlan("demo/arith", limit=3),),
            methods=("best_of_n:n=8",),
        )
        summary = asyncio.run(
            execute(plan, tmp_path / "run", RunOptions(concurrency=concurrency, progress=False, retry=FAST))
        )
    assert summary.tasks["demo/arith"].counts["error"] == 0
    assert len(server.requests) == 3 * 8
    assert server.peak_in_flight == concurrency


def test_request_bound_is_shared_by_every_wrapper_of_one_adapter() -> None:
    async def go(server: CountingServer) -> None:
        settings = CallSettings(retry=FAST, max_requests=3)
        spec = f"openai-compatible/m@{server.base_url}"
        first, second = settings.resolve(spec), settings.resolve(spec)
        try:
            await asyncio.gather(*(model.generate(_request(f"q{i}")) for i in range(6) for model in (first, second)))
        finally:
            await first.aclose()
            await second.aclose()

    with CountingServer(latency=0.05) as server:
        asyncio.run(go(server))
    assert len(server.requests) == 12
    assert server.peak_in_flight == 3


@pytest.mark.slow
def test_auxiliary_model_takes_the_active_retry_and_timeout() -> None:
    async def ask(server: OpenAIServer, settings: CallSettings) -> str:
        with using_call_settings(settings):
            judge = auxiliary_model(f"openai-compatible/judge@{server.base_url}", "judge")
        try:
            return (await judge.generate(_request("ping"))).text
        finally:
            await judge.aclose()

    with (
        OpenAIServer(faults=FaultPlan(schedule={0: "500"})) as server,
        pytest.raises(AdapterError, match="gave up after 0 retries"),
    ):
        asyncio.run(ask(server, CallSettings(retry=RetryPolicy(max_retries=0))))
    with OpenAIServer(faults=FaultPlan(schedule={0: "500"})) as server:
        assert asyncio.run(ask(server, CallSettings(retry=FAST))) == "ping"
    with (
        OpenAIServer(faults=FaultPlan(schedule={0: "timeout"}, hang_s=5)) as server,
        pytest.raises(AdapterError, match=r"no answer within 0\.3 s"),
    ):
        asyncio.run(ask(server, CallSettings(retry=RetryPolicy(max_retries=0), timeout_s=0.3)))


def test_auxiliary_model_outside_a_run_uses_the_defaults() -> None:
    assert active_call_settings() == CallSettings()
    judge = auxiliary_model("builtin/oracle", "judge")
    assert judge.role == "judge"
    assert isinstance(judge.inner, CallingAdapter) and judge.inner.retry == RetryPolicy()


class AskTheJudge(Task):
    """A task whose solver asks a second model (the judge) over loopback."""

    judge_spec = ""

    def samples(self) -> list[Sample]:
        return [Sample(id="only", input="What is 2+2?", target="4")]

    async def solve(self, sample: Sample, ctx: SolveContext) -> Output:
        judge = auxiliary_model(self.judge_spec, "judge")
        try:
            return Output(text=(await judge.generate(_request("4"))).text)
        finally:
            await judge.aclose()

    def score(self, sample: Sample, output: Output) -> Score:
        return Score.of(output.text == sample.target, answer=output.text)


def test_evaluate_hands_its_retry_policy_to_the_tasks_auxiliary_models() -> None:
    with OpenAIServer(faults=FaultPlan(schedule={0: "500"})) as server:
        AskTheJudge.judge_spec = f"openai-compatible/judge@{server.base_url}"
        failed = asyncio.run(
            evaluate(AskTheJudge("ask"), resolve_adapter("builtin/oracle"), retry=RetryPolicy(max_retries=0))
        )
        passed = asyncio.run(evaluate(AskTheJudge("ask"), resolve_adapter("builtin/oracle"), retry=FAST))
    assert failed[0].score.outcome == "error" and "gave up after 0 retries" in failed[0].score.explanation
    assert passed[0].score.correct is True
    assert [call.role for call in passed[0].calls] == ["judge"]


def test_adapter_options_are_checked() -> None:
    with pytest.raises(ConfigError, match=r"unknown option.*builtin adapters: n_ctx; known: none"):
        resolve_adapter("builtin/oracle", n_ctx=4)
    with pytest.raises(ConfigError, match="max_connections must be int"):
        resolve_adapter("openai-compatible/m@http://127.0.0.1:9/v1", max_connections="many")
    with pytest.raises(ConfigError, match="at least 1"):
        resolve_adapter("openai-compatible/m@http://127.0.0.1:9/v1", max_connections=0)
    for spec, kind in (("inspect/openai/gpt-4o-mini", "inspect"), ("lm-eval/hf?pretrained=x", "lm-eval")):
        with pytest.raises(ConfigError, match=f"unknown option.*{kind} adapters: n_ctx"):
            resolve_adapter(spec, n_ctx=4)
    adapter = resolve_adapter("openai-compatible/m@http://127.0.0.1:9/v1", max_connections=3)
    assert isinstance(adapter, OpenAICompatibleAdapter) and adapter.max_connections == 3
