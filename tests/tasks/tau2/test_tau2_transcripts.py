"""A τ² episode's transcript in the run log (issue 44 item 1): the agent's and the simulated user's
messages stored once each, every call's request read back exactly from its spans."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

from click.testing import CliRunner
from tau2_helpers import tau2_task
from test_tau2_episodes import _loopback_responder

from harness.cli.show import show_command
from harness.runformat import RunFiles
from harness.testing.openai_server import OpenAIServer
from harness.transcript import call_messages, conversation
from harness.types import Message

ENV = {**os.environ, "FRONTIER_CACHE_DIR": "", "LITELLM_LOCAL_MODEL_COST_MAP": "True"}


def _run(tmp_path: Path, limit: int) -> Path:
    """A ``frontier run`` of retail's first ``limit`` tasks: the oracle agent and the scripted user over HTTP."""
    tasks = tau2_task("tau2/retail").tau2_tasks()[:limit]
    run = tmp_path / "run"
    with OpenAIServer(_loopback_responder(tasks)) as server:
        model = f"openai-compatible/m@{server.base_url}"
        arguments = ["--model", model, "--limit", str(limit), "--out", str(run), "--no-cache", "--no-progress"]
        done = subprocess.run(
            [sys.executable, "-m", "harness", "run", "--task", "tau2/retail", *arguments],
            capture_output=True,
            text=True,
            env=ENV,
            timeout=300,
        )
    assert done.returncode == 0, done.stderr[-2000:]
    return run


def test_a_ten_turn_episode_stores_each_message_once(tmp_path: Path) -> None:
    run = _run(tmp_path, 5)
    raw = {json.loads(line)["sample_id"]: json.loads(line) for line in (run / "samples.jsonl").open()}
    results = {r.sample_id: r for r in RunFiles(run).results()}
    result = max(results.values(), key=lambda r: sum(c.role == "model" for c in r.calls))
    agent_calls = [c for c in result.calls if c.role == "model"]
    user_calls = [c for c in result.calls if c.role == "user"]
    assert len(agent_calls) >= 10 and user_calls and result.score.value == 1.0
    transcript = result.transcript or ()
    stored = raw[result.sample_id]["transcript"]
    # counted in the log line itself: no message twice, far fewer than the calls were made on
    counts = Counter(json.dumps(message, sort_keys=True) for message in stored)
    assert max(counts.values()) == 1 and len(stored) == len(transcript)
    sent = sum(len(call_messages(transcript, call)) for call in result.calls)
    assert len(stored) < sent / 4, (len(stored), sent)
    # the agent's trajectory in the output is spans of the transcript, not the messages again
    assert set(raw[result.sample_id]["output"]["trajectory"]) == {"transcript_spans"}
    assert result.output.trajectory and all(m in transcript for m in result.output.trajectory)
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
    # the user simulator's calls see the flipped view: its system prompt ends with the scenario
    assert all((call_messages(transcript, c)[0].content or "").endswith("</scenario>") for c in user_calls)
    # the conversation shown: system prompt, every turn of the trajectory, the user's closing turn
    shown = conversation(result)
    assert [m.content for m in shown[1:-1]] == [m.content for m in result.output.trajectory]
    assert shown[-1].role == "user" and shown[-1].content == user_calls[-1].generation.text
    # the terminal: every tool call with its arguments, each expected action held, every call
    printed = CliRunner().invoke(show_command, [str(run), "--sample", result.sample_id]).output
    for message in previous:
        for call in message.tool_calls:
            assert f"→ {call.name}(" in printed
    assert "checks.actions 1" in printed and "✓" in printed and f"calls ({len(result.calls)})" in printed
    assert "###STOP###" in (shown[-1].content or "")


def test_a_rescore_keeps_the_transcripts(tmp_path: Path) -> None:
    from harness.rescore import rescore

    run = _run(tmp_path, 2)
    before = {r.sample_id: r for r in RunFiles(run).results()}
    counts = asyncio.run(rescore(run))
    assert counts.rescored == 2 and counts.changed == 0
    after = {r.sample_id: r for r in RunFiles(run).results()}
    assert after == before and all(r.transcript for r in after.values())
