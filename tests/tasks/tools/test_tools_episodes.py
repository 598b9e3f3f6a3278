"""Whole episodes through the runner: oracle and random baselines, LLM agent and LLM user over loopback HTTP,
malformed tool calls, agents that never stop, infrastructure errors, rescoring and NL assertions."""

from __future__ import annotations

import json
from typing import Any

import pytest

from harness.adapters import resolve_adapter
from harness.adapters.base import close_adapter
from harness.runner import evaluate
from harness.testing.openai_server import OpenAIServer, Reply
from harness.types import Generation, Output, SampleResult
from tasks.tools import FAMILY
from tasks.tools.domains.registry import get_domain
from tasks.tools.evaluator import evaluate as evaluate_episode
from tasks.tools.framework.environment import Environment
from tasks.tools.orchestrator import run_episode
from tasks.tools.task import ToolsArgs, ToolsTaskBase
from tasks.tools.taskformat import parse_tasks
from tasks.tools.users import STOP, ScriptedUser, default_script


def _task(name: str, **args: Any) -> ToolsTaskBase[ToolsArgs]:
    entry = FAMILY.resolve(name)
    assert entry is not None, name
    task = entry.create(**args)
    assert isinstance(task, ToolsTaskBase), type(task)
    return task


@pytest.mark.parametrize(
    "name, limit",
    [
        ("toolsim/retail", None),
        ("toolsim/airline", None),
        ("toolsim/telecom", None),
        ("tools-synth/library", 6),
        ("tools-synth/clinic", 6),
    ],
)
async def test_oracle_scores_one_and_random_zero(name: str, limit: int | None) -> None:
    task = _task(name)
    oracle = await evaluate(task, resolve_adapter("builtin/oracle"), limit=limit)
    assert oracle and all(r.score.value == 1.0 for r in oracle), [
        r.score.explanation for r in oracle if r.score.value != 1.0
    ]
    assert all(r.output.data["termination"] == "user_stop" for r in oracle)
    randoms = await evaluate(task, resolve_adapter("builtin/random", seed=0), limit=limit)
    assert all(r.score.value == 0.0 and r.score.outcome == "scored" for r in randoms)


async def test_trials_and_summary_metrics() -> None:
    task = _task("toolsim/telecom", trials=2)
    results = await evaluate(task, resolve_adapter("builtin/oracle"), limit=6)
    assert [r.sample_id for r in results[:2]] == ["telecom-0#0", "telecom-0#1"]
    metrics = task.aggregate(results)
    assert metrics["pass^2"].value == 1.0 and metrics["pass^2"].n == 3
    assert metrics["termination/user_stop"].value == 1.0
    assert metrics["tool_errors_per_episode"].value == 0.0


async def test_rescoring_a_logged_result_needs_no_model() -> None:
    task = _task("toolsim/retail")
    result = (await evaluate(task, resolve_adapter("builtin/oracle"), limit=1))[0]
    logged = SampleResult.model_validate_json(result.model_dump_json())
    sample = next(iter(task.samples()))
    assert task.score(sample, logged.output) == result.score


def _telecom_responder() -> Any:
    """An agent and a user, both 'LLMs' behind one loopback server, solving telecom task 0 (airplane mode)."""
    task = get_domain("telecom").tasks()[0]
    agent_calls = [a for a in task.gold_actions() if a.requestor == "assistant"]

    def respond(body: dict[str, Any]) -> Reply:
        messages = body["messages"]
        if messages[0]["content"].startswith("You are playing a customer"):
            last = messages[-1]
            if last["role"] == "tool":
                return Reply(text="Done, the airplane icon is gone.")
            if "airplane" in (last.get("content") or "") and not any(m.get("tool_calls") for m in messages):
                assert any(t["function"]["name"] == "toggle_airplane_mode" for t in body["tools"])
                return Reply(tool_calls=[{"name": "toggle_airplane_mode", "arguments": '{"on": false}'}])
            if len([m for m in messages if m["role"] == "assistant"]) == 0:
                return Reply(text=f"My mobile data is down. My number is {agent_calls[0].arguments['phone_number']}.")
            return Reply(text=STOP)
        assert {t["function"]["name"] for t in body["tools"]} >= {"get_line_details", "refuel_data"}
        done = sum(1 for m in messages if m["role"] == "tool")
        if done < len(agent_calls):
            call = agent_calls[done]
            return Reply(tool_calls=[{"name": call.name, "arguments": json.dumps(call.arguments)}])
        if messages[-1]["role"] == "tool":
            return Reply(text="Please turn off airplane mode on your phone.")
        return Reply(text="Glad it works now.")

    return respond


async def test_llm_agent_and_llm_user_over_http() -> None:
    with OpenAIServer(_telecom_responder()) as server:
        task = _task("toolsim/telecom", user_model=f"openai-compatible/user@{server.base_url}")
        agent = resolve_adapter(f"openai-compatible/agent@{server.base_url}")
        result = (await evaluate(task, agent, limit=1))[0]
    data = result.output.data
    assert result.score.value == 1.0, result.score.explanation
    assert data["termination"] == "user_stop"
    assert [c["side"] for c in data["calls"]] == ["assistant", "assistant", "user"]
    assert data["user_usage"]["output_tokens"] > 0
    user_calls = [call for call in result.calls if call.role == "user"]
    assert user_calls and {call.role for call in result.calls} == {"model", "user"}
    assert result.usage.output_tokens == sum(call.generation.usage.output_tokens for call in result.calls)
    roles = [m.role for m in result.output.trajectory]
    assert roles[:2] == ["system", "user"] and "tool" in roles


BAD_CALLS = [
    {"name": "get_order_details", "arguments": "{not json"},
    {"name": "launch_rocket", "arguments": "{}"},
    {"name": "get_order_details", "arguments": '{"order_id": 42}'},
    {"name": "cancel_pending_order", "arguments": '{"order_id": "#W1"}'},
    {"name": "get_order_details", "arguments": json.dumps({"order_id": "x" * 1_000_000})},
]


async def test_malformed_tool_calls_end_by_error_limit() -> None:
    def respond(body: dict[str, Any]) -> Reply:
        if body["messages"][0]["content"].startswith("You are playing"):
            return Reply(text="hello")
        done = sum(1 for m in body["messages"] if m["role"] == "tool")
        return Reply(tool_calls=[BAD_CALLS[done % len(BAD_CALLS)]])

    with OpenAIServer(respond) as server:
        task = _task("toolsim/retail", max_errors=5)
        result = (await evaluate(task, resolve_adapter(f"openai-compatible/a@{server.base_url}"), limit=1))[0]
    data = result.output.data
    assert data["termination"] == "too_many_errors" and data["tool_errors"] == 5
    assert result.score.value == 0.0 and result.score.outcome == "scored"
    contents = [c["content"] for c in data["calls"]]
    assert "not valid JSON" in contents[0] and "unknown tool" in contents[1]
    assert "valid string" in contents[2] and "Field required" in contents[3] and "too large" in contents[4]
    assert len(result.output.model_dump_json()) < 200_000


async def test_agent_that_never_stops_hits_step_limit() -> None:
    def respond(body: dict[str, Any]) -> Reply:
        return Reply(tool_calls=[{"name": "list_all_product_types", "arguments": "{}"}])

    with OpenAIServer(respond) as server:
        task = _task("toolsim/retail", max_steps=12)
        result = (await evaluate(task, resolve_adapter(f"openai-compatible/a@{server.base_url}"), limit=1))[0]
    assert result.output.data["termination"] == "max_steps" and result.output.data["steps"] == 12
    assert result.score.value == 0.0


async def test_infrastructure_error_is_reported_not_scored_as_wrong() -> None:
    domain = get_domain("retail")
    task = domain.tasks()[0]

    async def broken(messages, tools) -> Generation:
        raise ConnectionError("socket closed")

    episode = await run_episode(Environment(domain), broken, ScriptedUser(default_script(task)))
    assert episode.termination == "infrastructure_error" and "socket closed" in (episode.error or "")
    tools_task = _task("toolsim/retail")
    sample = next(iter(tools_task.samples()))
    score = tools_task.score(sample, Output(data={"termination": "infrastructure_error", "error": episode.error}))
    assert score.outcome == "error"


def test_garbage_output_data_is_unscored() -> None:
    task = _task("toolsim/retail")
    sample = next(iter(task.samples()))
    for data in ({"calls": "nope"}, {"calls": [{"side": "robot", "name": "x", "arguments": "{}"}]}, {"calls": [1]}):
        assert task.score(sample, Output(data=data)).outcome == "unscored"
    assert task.score(sample, Output(text="done")).value == 0.0


def test_nl_assertions_need_a_judge() -> None:
    domain = get_domain("retail")
    raw = domain.tasks()[0].model_dump(mode="json")
    raw["evaluation_criteria"]["nl_assertions"] = ["The agent is polite."]
    raw["evaluation_criteria"]["reward_basis"] = ["DB", "NL_ASSERTION"]
    task = parse_tasks([raw])[0]
    calls = [{"side": a.requestor, "name": a.name, "arguments": json.dumps(a.arguments)} for a in task.gold_actions()]
    pending = evaluate_episode(domain, task, calls, ["ok"])
    assert pending.reward is None and pending.components["NL_ASSERTION"]["status"] == "not_evaluated"
    judged = evaluate_episode(domain, task, calls, ["ok"], [{"assertion": "The agent is polite.", "met": True}])
    assert judged.reward == 1.0
    refused = evaluate_episode(domain, task, calls, ["ok"], [{"assertion": "The agent is polite.", "met": False}])
    assert refused.reward == 0.0


async def test_llm_judge_over_http() -> None:
    from tasks.tools.judge import judge_assertions, parse_judgement

    with OpenAIServer(
        lambda body: Reply(text='Sure: {"results": [{"index": 1, "met": true, "justification": "yes"}]}')
    ) as server:
        judge = resolve_adapter(f"openai-compatible/j@{server.base_url}")
        verdicts = await judge_assertions(judge, (), ["Agent refused."])
        await close_adapter(judge)
    assert verdicts == [{"assertion": "Agent refused.", "met": True, "justification": "yes"}]
    assert parse_judgement("no json here", ["a"]) is None
    assert parse_judgement('{"results": [{"index": 2, "met": true}]}', ["a"]) is None


def test_look_alike_domains_are_named_and_listed_as_not_tau2() -> None:
    listed = {e.name: e.description for e in FAMILY}
    assert {"toolsim/retail", "toolsim/airline", "toolsim/telecom"} <= set(listed)
    assert not any(name.startswith("tools/") for name in listed)
    assert all("NOT τ²-bench" in listed[f"toolsim/{d}"] for d in ("retail", "airline", "telecom"))
    former = FAMILY.resolve("tools/retail")
    assert former is not None
    built = former.create()
    assert isinstance(built, ToolsTaskBase) and built.domain().name == "retail"
    assert FAMILY.resolve("tools/nowhere") is None
