"""τ² tasks end to end: oracle and idle agents through the runner, LLM agent and user over loopback HTTP,
the ``frontier run`` command, and hostile records and data."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from tau2_helpers import tau2_task as build_task

from harness.adapters import resolve_adapter
from harness.errors import ConfigError
from harness.runner import evaluate
from harness.testing.openai_server import OpenAIServer, Reply
from harness.types import Message, Output, ToolCall
from tasks.tau2.library import resolve_data_root
from tasks.tau2.scripted import opening_text, oracle_reply, scripted_user_reply
from tasks.tau2.task import Tau2DomainTask

ENV = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}


def _task(name: str, **args: Any) -> Tau2DomainTask:
    return build_task(name, **args)


def _basis_allows(task) -> bool:
    """Whether the gold actions can get τ²'s reward 1: COMMUNICATE never matches an info string with a comma,
    and environment assertions cannot hold where the task gives no gold actions (one mock task)."""
    criteria = task.evaluation_criteria
    basis = {b.value for b in criteria.reward_basis} if criteria else set()
    if "COMMUNICATE" in basis and any("," in info for info in criteria.communicate_info or []):
        return False
    return not ("ENV_ASSERTION" in basis and criteria.env_assertions and criteria.actions is None)


async def test_every_mock_task_scores_as_tau2_scores_it_message_histories_included() -> None:
    from tasks.tau2.parity import tau2_reward
    from tasks.tau2.trajectory import logged_trajectory

    task = _task("tau2/mock")
    samples = {s.id: s for s in task.samples()}
    for spec in ("builtin/oracle", "builtin/random"):
        for result in await evaluate(task, resolve_adapter(spec)):
            tau2_task = task.task_of(samples[result.sample_id])
            trajectory = logged_trajectory(result.output)
            try:
                theirs: float | None = tau2_reward("mock", tau2_task, trajectory, result.output.data["termination"])
            except ValueError:  # τ²'s evaluator raises (an assertion function failing): unscored here
                theirs = None
            assert result.score.value == theirs, (spec, result.sample_id, result.score.explanation)
    history = samples["mock-update_task_with_message_history"]
    result = (await evaluate(task, resolve_adapter("builtin/oracle"), limit=9))[4]
    assert result.sample_id == history.id and result.output.trajectory[0].role == "user"


@pytest.mark.parametrize(
    "name, limit", [("tau2/mock", None), ("tau2/retail", 12), ("tau2/telecom", 12), ("tau2/airline", 4)]
)
@pytest.mark.slow
async def test_oracle_gets_official_one_and_idle_agent_strict_zero(name: str, limit: int | None) -> None:
    task = _task(name)
    oracle = await evaluate(task, resolve_adapter("builtin/oracle"), limit=limit)
    scored = [r for r in oracle if r.score.outcome != "error"]
    assert len(scored) >= min(limit or 7, 7)
    for result in scored:
        tau2_task = task.task_of(next(s for s in task.samples() if s.id == result.sample_id))
        if _basis_allows(tau2_task):
            assert result.score.value == 1.0, (result.sample_id, result.score.explanation)
        assert result.output.data["termination"] == "user_stop"
    idle = await evaluate(task, resolve_adapter("builtin/random", seed=0), limit=limit)
    assert all(r.score.details.get("reward_strict", 0.0) == 0.0 for r in idle if r.score.outcome != "error")
    metrics = task.aggregate(oracle)
    assert {"reward", "reward_strict", "pass^1", "strict/pass^1"} <= set(metrics)
    assert metrics["reward"].ci_low is not None and metrics["reward"].n == len(scored)


async def test_rescoring_a_logged_episode_needs_no_model_and_tampering_is_unscored() -> None:
    task = _task("tau2/retail")
    result = (await evaluate(task, resolve_adapter("builtin/oracle"), limit=1))[0]
    sample = next(iter(task.samples()))
    assert task.score(sample, result.output) == result.score
    messages = result.output.trajectory
    tool = next(i for i, m in enumerate(messages) if m.role == "tool")
    call = next(i for i, m in enumerate(messages) if m.tool_calls)

    def edited(index: int, **fields: object) -> tuple[Message, ...]:
        return (*messages[:index], messages[index].model_copy(update=fields), *messages[index + 1 :])

    def with_arguments(arguments: str) -> tuple[Message, ...]:
        tool_call = messages[call].tool_calls[0].model_copy(update={"arguments": arguments})
        return edited(call, tool_calls=(tool_call,))

    forged = [
        edited(tool, content="something the tool never said"),
        (messages[tool], *messages),  # a tool result that answers no call
        with_arguments("[1]"),
        with_arguments("[" * 100_000),
        with_arguments('{"n": ' + "9" * 5000 + "}"),
        with_arguments('{"a": 1'),
    ]
    for output in (
        *(Output(trajectory=trajectory, data=result.output.data) for trajectory in forged),
        Output(trajectory=messages, data={**result.output.data, "tool_errors_at": "x"}),
        Output(trajectory=messages, data={**result.output.data, "nl_met": "yes"}),
        Output(data={**result.output.data, "tau2_messages": "x"}),  # a log written before run format 3
        Output(data={**result.output.data, "tau2_messages": [{"role": "wizard"}]}),
    ):
        score = task.score(sample, output)
        assert score.outcome == "unscored", score
    assert task.score(sample, Output(trajectory=messages, data={"termination": "max_steps"})).value == 0.0


def _loopback_responder(tasks: list) -> Any:
    """An agent and a user behind one OpenAI-compatible server: the oracle and the scripted user over HTTP."""
    by_scenario = {str(t.user_scenario): t for t in tasks}
    by_opening = {opening_text(t): t for t in tasks}

    def respond(body: dict[str, Any]) -> Reply:
        messages = tuple(
            Message(
                role=m["role"],
                content=m.get("content"),
                tool_call_id=m.get("tool_call_id"),
                tool_calls=tuple(
                    ToolCall(id=c["id"], name=c["function"]["name"], arguments=c["function"]["arguments"])
                    for c in m.get("tool_calls") or []
                ),
            )
            for m in body["messages"]
        )
        system = messages[0].content or ""
        if system.endswith("</scenario>"):
            task = next(t for s, t in by_scenario.items() if s in system)
            generation = scripted_user_reply(task, messages)
        else:
            assert "<policy>" in system and {t["function"]["name"] for t in body["tools"]} >= {"cancel_pending_order"}
            task = by_opening[messages[2].content or ""]
            generation = oracle_reply(task, messages)
        return Reply(
            text=generation.text, tool_calls=[{"name": c.name, "arguments": c.arguments} for c in generation.tool_calls]
        )

    return respond


@pytest.mark.slow
def test_frontier_run_on_real_retail_tasks_against_a_loopback_server(tmp_path: Path) -> None:
    tasks = _task("tau2/retail").tau2_tasks()[:5]
    with OpenAIServer(_loopback_responder(tasks)) as server:
        run = tmp_path / "run"
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "harness",
                "run",
                "--task",
                "tau2/retail",
                "--model",
                f"openai-compatible/m@{server.base_url}",
                "--limit",
                "5",
                "--out",
                str(run),
                "--no-cache",
                "--no-progress",
            ],
            capture_output=True,
            text=True,
            env=ENV,
            timeout=300,
        )
    assert done.returncode == 0, done.stderr[-2000:]
    lines = [json.loads(line) for line in (run / "samples.jsonl").read_text().splitlines()]
    assert len(lines) == 5 and all(line["score"]["value"] == 1.0 for line in lines)
    assert all({c["role"] for c in line["calls"]} == {"model", "user"} for line in lines)
    metrics = json.loads((run / "summary.json").read_text())["tasks"]["tau2/retail"]["metrics"]
    for name in ("reward", "reward_strict", "pass^1"):
        assert metrics[name]["value"] == 1.0 and metrics[name]["ci_low"] is not None and metrics[name]["n"] == 5
    config = json.loads((run / "config.json").read_text())
    assert "tau2_version" in json.dumps(config)
    assert "reward_strict" in done.stdout


async def test_malformed_tool_arguments_end_the_episode_as_an_agent_error() -> None:
    def respond(body: dict[str, Any]) -> Reply:
        if body["messages"][0]["content"].endswith("</scenario>"):
            return Reply(text="I want to cancel my order.")
        return Reply(tool_calls=[{"name": "cancel_pending_order", "arguments": "{not json"}])

    task = _task("tau2/retail", user_model="scripted")
    with OpenAIServer(respond) as server:
        result = (await evaluate(task, resolve_adapter(f"openai-compatible/a@{server.base_url}"), limit=1))[0]
    assert result.output.data["termination"] == "agent_error"
    assert result.score.outcome == "scored" and result.score.value == 0.0


def test_data_root_from_a_checkout_and_clear_errors_for_bad_data(tmp_path: Path, monkeypatch) -> None:
    package = resolve_data_root(None)
    checkout = tmp_path / "tau2-bench" / "data" / "tau2"
    (checkout / "domains").mkdir(parents=True)
    (checkout / "domains" / "mock").symlink_to(package / "domains" / "mock")
    (checkout / "user_simulator").symlink_to(package / "user_simulator")
    assert resolve_data_root(str(tmp_path / "tau2-bench")) == checkout.resolve()
    monkeypatch.setenv("TAU2_DATA_DIR", str(tmp_path / "tau2-bench"))
    assert resolve_data_root(None) == checkout.resolve()
    with pytest.raises(ConfigError, match="no τ² data"):
        resolve_data_root(str(tmp_path / "nowhere"))
    bad = tmp_path / "bad" / "domains" / "mock"
    bad.mkdir(parents=True)
    for name in ("db.json", "policy.md", "split_tasks.json"):
        (bad / name).symlink_to(package / "domains" / "mock" / name)
    tasks = json.loads((package / "domains" / "mock" / "tasks.json").read_text())
    tasks[0]["initial_state"] = {"initialization_data": {"agent_data": {"no_such_table": {}}}}
    (bad / "tasks.json").write_text(json.dumps(tasks))
    with pytest.raises(ConfigError, match=r"unknown table.*no_such_table"):
        list(_task("tau2/mock", tau2_data=str(tmp_path / "bad")).samples())
    (bad / "tasks.json").write_text("[" * 5000)
    with pytest.raises(ConfigError, match="not valid JSON"):
        list(_task("tau2/mock", tau2_data=str(tmp_path / "bad"), split="base").samples())


def test_nl_assertions_are_judged_over_http_and_count_only_in_the_strict_reward() -> None:
    judged: list[str] = []

    def respond(body: dict[str, Any]) -> Reply:
        judged.append(body["messages"][1]["content"])
        outcomes = body["messages"][1]["content"].split("expectedOutcomes:")[1]
        count = outcomes.count("', '") + 1
        return Reply(
            text=json.dumps({"results": [{"expectedOutcome": "x", "reasoning": "no", "metExpectation": False}] * count})
        )

    with OpenAIServer(respond) as server:
        task = _task("tau2/airline", judge_model=f"openai-compatible/j@{server.base_url}")
        import asyncio

        results = asyncio.run(evaluate(task, resolve_adapter("builtin/oracle"), limit=2))
    assert judged and "conversation:" in judged[0] and "Agent should refuse" in judged[0]
    result = results[1]  # airline task 1: reads only, so no strict rule applies; only the judged assertion fails
    assert result.output.data["nl_met"] == [False]
    assert result.score.value == 1.0 and result.score.details["reward_strict"] == 0.0
    assert result.score.details["strict_failures"] == []
    assert result.score.details["outside_basis"]["NL_ASSERTION"] == 0.0
    assert [c.role for c in result.calls].count("judge") == 1


def test_judge_answers_that_cannot_be_read_leave_nl_assertions_unjudged() -> None:
    from tasks.tau2.judge import parse_verdicts

    assert parse_verdicts('{"results": [{"metExpectation": true}]}', 1) == [True]
    for text in ("", "yes", "[1]", '{"results": [{"metExpectation": "true"}]}', '{"results": []}', "[" * 10000):
        assert parse_verdicts(text, 1) is None


def test_splits_are_tau2_splits_and_trials_give_pass_k() -> None:
    assert len(_task("tau2/airline", split="test").tau2_tasks()) == 20
    assert len(_task("tau2/retail", split="train").tau2_tasks()) == 74
    assert len(_task("tau2/telecom", split="small").tau2_tasks()) == 20
    with pytest.raises(ConfigError, match=r"no split 'nope'.*base"):
        _task("tau2/airline", split="nope").tau2_tasks()
    import asyncio

    task = _task("tau2/mock", trials=2)
    results = asyncio.run(evaluate(task, resolve_adapter("builtin/oracle"), limit=4))
    assert [r.sample_id for r in results[:2]] == ["mock-create_task_1#0", "mock-create_task_1#1"]
    metrics = task.aggregate(results)
    assert metrics["pass^2"].value == 1.0 and metrics["pass^2"].n == 2 and metrics["strict/pass^2"].n == 2


@pytest.mark.parametrize(
    "tool, max_steps, termination", [("get_user_details", 8, "max_steps"), ("no_such_tool", 200, "too_many_errors")]
)
async def test_step_and_error_limits_end_the_episode_with_reward_zero(
    tool: str, max_steps: int, termination: str
) -> None:
    def respond(body: dict[str, Any]) -> Reply:
        return Reply(tool_calls=[{"name": tool, "arguments": '{"user_id": "nobody"}'}])

    task = _task("tau2/retail", user_model="scripted", max_steps=max_steps)
    with OpenAIServer(respond) as server:
        result = (await evaluate(task, resolve_adapter(f"openai-compatible/a@{server.base_url}"), limit=1))[0]
    data = result.output.data
    assert data["termination"] == termination and result.score.value == 0.0
    assert result.score.details["reward_strict"] == 0.0
    if termination == "max_steps":
        assert data["steps"] == max_steps + 1  # τ² checks the limit only after a step not addressed to the tools
    else:
        assert data["tool_errors"] == 10
