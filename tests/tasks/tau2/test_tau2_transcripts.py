"""A τ² episode's transcript in the run log (issue 44 item 1): the agent's and the simulated user's
messages stored once each, every call's request read back exactly from its spans."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from tau2_helpers import tau2_task
from test_tau2_episodes import _loopback_responder

from harness.cli.show import show_command
from harness.runformat import RunFiles
from harness.testing.openai_server import OpenAIServer
from harness.transcript import call_messages, conversation, ending
from harness.types import Message, SampleResult
from tasks.tau2.episode import GREETING

ENV = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}


def _run(tmp_path: Path, limit: int, *options: str) -> Path:
    """A ``frontier run`` of retail's first ``limit`` tasks: the oracle agent and the scripted user over HTTP
    (``-T user_model=scripted`` among ``options``: the scripted user in process)."""
    tasks = tau2_task("tau2/retail").tau2_tasks()[:limit]
    run = tmp_path / "run"
    with OpenAIServer(_loopback_responder(tasks)) as server:
        model = f"openai-compatible/m@{server.base_url}"
        arguments = ["--model", model, "--limit", str(limit), "--out", str(run), "--no-cache", "--no-progress"]
        arguments += options
        done = subprocess.run(
            [sys.executable, "-m", "harness", "run", "--task", "tau2/retail", *arguments],
            capture_output=True,
            text=True,
            env=ENV,
            timeout=300,
        )
    assert done.returncode == 0, done.stderr[-2000:]
    return run


def _strings(node: object) -> Iterator[str]:
    """Every string value in a parsed JSON document."""
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for value in node.values():
            yield from _strings(value)
    elif isinstance(node, list):
        for value in node:
            yield from _strings(value)


def _texts(messages: Iterable[Message]) -> Counter[str]:
    """How many of ``messages`` carry each text, as content or as a tool call's arguments."""
    return Counter(
        text
        for message in set(messages)
        for text in (message.content, *(call.arguments for call in message.tool_calls))
        if text
    )


def test_a_ten_turn_episode_stores_each_message_once(tmp_path: Path) -> None:
    run = _run(tmp_path, 5)
    raw = {json.loads(line)["sample_id"]: json.loads(line) for line in (run / "samples.jsonl").open()}
    results = {r.sample_id: r for r in RunFiles(run).results()}
    result = max(results.values(), key=lambda r: sum(c.role == "model" for c in r.calls))
    agent_calls = [c for c in result.calls if c.role == "model"]
    user_calls = [c for c in result.calls if c.role == "user"]
    assert len(agent_calls) >= 10 and user_calls and result.score.value == 1.0
    transcript = result.transcript or ()
    line = raw[result.sample_id]
    trajectory = result.output.trajectory
    # counted in the raw log line: the two system prompts and each distinct turn of the episode, once
    assert len(line["transcript"]) == len(transcript) == 2 + len(set(trajectory))
    assert "tau2_messages" not in line["output"]["data"]
    # every text of a turn (a message, a tool call's arguments) occurs as often as distinct messages carry it
    # (a tool that answers two calls alike: twice), nowhere else in the line; the sample's own definition aside
    expected = _texts(transcript)
    found = Counter(text for text in _strings({k: v for k, v in line.items() if k != "metadata"}) if text in expected)
    assert found == expected, {text[:60]: (found[text], n) for text, n in expected.items() if found[text] != n}
    sent = sum(len(call_messages(transcript, call)) for call in result.calls)
    assert len(transcript) < sent / 4, (len(transcript), sent)
    # the calls name their replies and the output its text and trajectory by position in the transcript
    assert all("reply" in call and "text" not in call["generation"] for call in line["calls"])
    assert set(line["output"]["trajectory"]) == {"transcript_spans"} and set(line["output"]["text"]) == {"transcript"}
    # each agent call's request is the previous one plus what happened since: a growing prefix
    previous: tuple[Message, ...] = ()
    for call in agent_calls:
        messages = call_messages(transcript, call)
        assert messages[: len(previous)] == previous and len(messages) > len(previous)
        previous = messages
    assert previous[0].role == "system" and "<policy>" in (previous[0].content or "")
    tool_calls = [m for m in previous if m.tool_calls]
    assert tool_calls and all(json.loads(call.arguments) is not None for m in tool_calls for call in m.tool_calls)
    assert any(m.role == "tool" for m in previous)
    # the user simulator's calls see the swapped view: its system prompt ends with the scenario, its turns are
    # the assistant's, the agent's the user's
    for call in user_calls:
        seen = call_messages(transcript, call)
        assert (seen[0].content or "").endswith("</scenario>") and seen[1] == Message(role="user", content=GREETING)
        assert call.reply() in transcript and call.reply().role == "user"
    # the conversation shown: system prompt, every turn of the trajectory, the user's stop last and marked
    shown = conversation(result)
    assert shown[1:] == trajectory and shown[-1] == user_calls[-1].reply()
    assert shown[-1].content == "###STOP###" and ending(result, shown) == "the user's stop"
    # the terminal: every tool call with its arguments, each expected action held, every call, the stop
    printed = CliRunner().invoke(show_command, [str(run), "--sample", result.sample_id]).output
    for message in previous:
        for call in message.tool_calls:
            assert f"→ {call.name}(" in printed
    assert "checks.actions 1" in printed and "✓" in printed and f"calls ({len(result.calls)})" in printed
    assert "user · ends the conversation (the user's stop)" in printed


def test_a_rescore_keeps_the_transcripts(tmp_path: Path) -> None:
    from harness.rescore import rescore

    run = _run(tmp_path, 2)
    before = {r.sample_id: r for r in RunFiles(run).results()}
    counts = asyncio.run(rescore(run))
    assert counts.rescored == 2 and counts.changed == 0
    after = {r.sample_id: r for r in RunFiles(run).results()}
    assert after == before and all(r.transcript for r in after.values())


def test_the_offline_scripted_users_stop_is_in_the_transcript_and_shown_as_its_stop(tmp_path: Path) -> None:
    run = _run(tmp_path, 1, "-T", "user_model=scripted")
    (result,) = RunFiles(run).results()
    assert result.score.value == 1.0 and {c.role for c in result.calls} == {"model"}  # the user made no call
    stop = Message(role="user", content="###STOP###")
    assert result.transcript is not None and result.transcript[-1] == stop
    shown = conversation(result)
    assert shown[-1] == stop and ending(result, shown) == "the user's stop"
    assert [m.role for m in shown].count("user") >= 2  # the opening turn and the stop
    printed = CliRunner().invoke(show_command, [str(run), "--sample", result.sample_id]).output
    assert "user · ends the conversation (the user's stop)" in printed and "###STOP###" in printed


def test_a_log_written_before_the_trajectory_was_read_from_the_transcript_reads_shows_and_rescores(
    tmp_path: Path,
) -> None:
    """The fixture was written by the code of commit 92111c4: each output holds ``tau2_messages``."""
    from harness.rescore import rescore

    run = tmp_path / "run"
    shutil.copytree(Path(__file__).parent / "fixtures" / "run_format2_tau2_messages", run)
    before = {r.sample_id: r for r in RunFiles(run).results()}
    assert len(before) == 2 and all("tau2_messages" in r.output.data for r in before.values())
    for result in before.values():
        shown = conversation(result)
        assert shown[-1].role == "user" and shown[-1].content == "###STOP###"  # the user's closing call
        assert ending(result, shown) is None  # that log did not say how the episode ended
        printed = CliRunner().invoke(show_command, [str(run), "--sample", result.sample_id]).output
        assert "###STOP###" in printed and "checks.actions 1" in printed
    counts = asyncio.run(rescore(run))
    assert counts.rescored == 2 and counts.changed == 0
    after = {r.sample_id: r for r in RunFiles(run).results()}
    assert {k: r.score for k, r in after.items()} == {k: r.score for k, r in before.items()}
    assert all(r.score.value == 1.0 for r in after.values()) and after == before


async def test_tau2s_messages_read_back_from_the_transcript_are_the_episodes(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every field τ²'s evaluation reads (roles, texts, tool calls with their requestor, each result's call,
    requestor and error flag) survives the log, user tool calls (telecom) included."""
    from harness.adapters import resolve_adapter
    from harness.runner import evaluate
    from tasks.tau2 import task as task_module
    from tasks.tau2.trajectory import logged_trajectory

    episodes: list[list] = []
    real = task_module.episode_messages

    def capture(trajectory: list) -> tuple[Message, ...]:
        episodes.append(list(trajectory))
        return real(trajectory)

    monkeypatch.setattr(task_module, "episode_messages", capture)

    def fields(message: object) -> tuple:
        calls = [(c.id, c.name, c.arguments, c.requestor) for c in getattr(message, "tool_calls", None) or []]
        extra = (message.requestor, message.error) if hasattr(message, "requestor") else ()
        return (message.role, message.content, calls, getattr(message, "id", None), *extra)

    results = []
    for name, limit in (("tau2/telecom", 6), ("tau2/retail", 5)):
        results += await evaluate(tau2_task(name), resolve_adapter("builtin/oracle"), limit=limit, concurrency=1)
    assert len(episodes) == len(results)
    user_tool_calls = errors = 0
    for original, result in zip(episodes, results, strict=True):
        restored = logged_trajectory(SampleResult.model_validate_json(result.model_dump_json()).output)
        assert [fields(m) for m in restored] == [fields(m) for m in original], result.sample_id
        user_tool_calls += sum(m.role == "user" and bool(m.tool_calls) for m in original)
        errors += sum(bool(getattr(m, "error", False)) for m in original)
    assert user_tool_calls > 0 and errors > 0
