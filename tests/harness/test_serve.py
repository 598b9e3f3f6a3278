"""``frontier serve`` over real loopback HTTP: clients -> our server -> an adapter -> the test server."""

from __future__ import annotations

import asyncio
import json
import urllib.error
import urllib.request

import pytest
from click.testing import CliRunner

from harness.adapters import resolve_adapter
from harness.serve import AdapterServer
from harness.testing.openai_server import FaultPlan, OpenAIServer, Reply
from harness.types import GenerateRequest, Message


def _responder(body: dict) -> Reply:
    if body.get("tools"):
        return Reply(tool_calls=[{"id": "call_9", "name": "lookup", "arguments": '{"q": "x"}'}])
    last = body["messages"][-1]["content"]
    return Reply(text=f"echo: {last}")


def _post(url: str, payload: object, raw: bytes | None = None) -> tuple[int, dict | str]:
    data = raw if raw is not None else json.dumps(payload).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            text = response.read().decode()
            status = response.status
    except urllib.error.HTTPError as exc:
        text, status = exc.read().decode(), exc.code
    try:
        return status, json.loads(text)
    except json.JSONDecodeError:
        return status, text


@pytest.fixture
def upstream():
    with OpenAIServer(_responder) as server:
        yield server


@pytest.fixture
def served(upstream):
    adapter = resolve_adapter(f"openai-compatible/upstream-model@{upstream.base_url}")
    with AdapterServer(adapter, model_id="served-model") as server:
        yield server


async def _generate(spec: str, request: GenerateRequest):
    adapter = resolve_adapter(spec)
    try:
        return await adapter.generate(request)
    finally:
        close = getattr(adapter, "aclose", None)
        if close is not None:
            await close()


@pytest.mark.parametrize("prefix", ["openai-compatible/served-model@", "openai/served-model@"])
def test_chat_completion_through_the_suites_clients(served, upstream, prefix) -> None:
    request = GenerateRequest(
        messages=(Message(role="system", content="terse"), Message(role="user", content="hi")),
        max_tokens=5,
        temperature=0.0,
        seed=3,
        stop=("END",),
    )
    generation = asyncio.run(_generate(prefix + served.base_url, request))
    assert generation.text == "echo: hi"
    assert generation.usage.output_tokens == 2 and generation.usage.input_tokens == 2
    forwarded = upstream.requests[-1]
    assert forwarded["max_tokens"] == 5 and forwarded["seed"] == 3 and forwarded["stop"] == ["END"]
    assert [m["role"] for m in forwarded["messages"]] == ["system", "user"]


def test_tool_calls_and_logprobs_pass_through(served) -> None:
    tool = {"type": "function", "function": {"name": "lookup", "parameters": {"type": "object"}}}
    status, body = _post(
        served.base_url + "/chat/completions",
        {"model": "anything", "messages": [{"role": "user", "content": "find x"}], "tools": [tool]},
    )
    assert status == 200
    call = body["choices"][0]["message"]["tool_calls"][0]
    assert call["function"] == {"name": "lookup", "arguments": '{"q": "x"}'}
    assert body["choices"][0]["finish_reason"] == "tool_calls" and body["model"] == "served-model"
    status, body = _post(
        served.base_url + "/chat/completions",
        {"messages": [{"role": "user", "content": [{"type": "text", "text": "a b"}]}], "logprobs": True},
    )
    content = body["choices"][0]["logprobs"]["content"]
    assert [c["token"] for c in content] == ["echo:", "a", "b"] and all(c["logprob"] <= 0 for c in content)


def test_streaming_chat_sends_the_reply_then_done(served) -> None:
    request = urllib.request.Request(
        served.base_url + "/chat/completions",
        data=json.dumps(
            {
                "messages": [{"role": "user", "content": "stream me"}],
                "stream": True,
                "stream_options": {"include_usage": True},
            }
        ).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        events = [line[6:] for line in response.read().decode().splitlines() if line.startswith("data: ")]
    assert events[-1] == "[DONE]"
    chunks = [json.loads(e) for e in events[:-1]]
    text = "".join(c["choices"][0]["delta"].get("content") or "" for c in chunks if c["choices"])
    assert text == "echo: stream me"
    assert chunks[-1]["usage"]["completion_tokens"] == 3


def test_models_and_plain_completions(served) -> None:
    with urllib.request.urlopen(served.base_url + "/models", timeout=30) as response:
        assert [m["id"] for m in json.loads(response.read())["data"]] == ["served-model"]
    status, body = _post(served.base_url + "/completions", {"prompt": ["one", "two"], "max_tokens": 4, "echo": True})
    assert status == 200
    assert [c["text"] for c in body["choices"]] == ["oneecho: one", "twoecho: two"]
    assert [c["index"] for c in body["choices"]] == [0, 1]
    status, body = _post(served.base_url + "/completions", {"prompt": "x", "n": "many"})
    assert status == 400 and "'n'" in body["error"]["message"]
    request = urllib.request.Request(
        served.base_url + "/completions",
        data=json.dumps({"prompt": "three", "stream": True}).encode(),
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=30) as response:
        events = [line[6:] for line in response.read().decode().splitlines() if line.startswith("data: ")]
    assert events[-1] == "[DONE]" and json.loads(events[0])["choices"][0]["text"] == "echo: three"


@pytest.mark.parametrize(
    "payload, raw, needle",
    [
        (None, b"{not json", "not valid JSON"),
        ([1, 2], None, "JSON object"),
        ({"messages": []}, None, "non-empty list"),
        ({"messages": [{"role": "robot", "content": "x"}]}, None, "unknown role"),
        ({"messages": [{"role": "user", "content": [{"type": "image_url"}]}]}, None, "only text content"),
        ({"messages": [{"role": "user", "content": "x"}], "n": 0}, None, "'n'"),
        ({"messages": [{"role": "user", "content": "x"}], "stop": 5}, None, "'stop'"),
        ({"messages": [{"role": "user", "content": "x"}], "temperature": "hot"}, None, "temperature"),
    ],
)
def test_malformed_requests_get_400_with_a_reason(served, payload, raw, needle) -> None:
    status, body = _post(served.base_url + "/chat/completions", payload, raw)
    assert status == 400
    assert needle in body["error"]["message"]


def test_completions_reject_token_prompts_and_prompt_scoring_without_a_local_model(served) -> None:
    status, body = _post(served.base_url + "/completions", {"prompt": [[1, 2, 3]]})
    assert status == 400 and "token-id prompts" in body["error"]["message"]
    status, body = _post(
        served.base_url + "/completions", {"prompt": "x", "echo": True, "logprobs": 1, "max_tokens": 0}
    )
    assert status == 400 and "cannot score prompts" in body["error"]["message"]


def test_upstream_failures_map_to_status_codes() -> None:
    with OpenAIServer(_responder, faults=FaultPlan(schedule={0: "500", 1: "malformed"})) as upstream:
        adapter = resolve_adapter(f"openai-compatible/m@{upstream.base_url}")
        with AdapterServer(adapter) as server:
            payload = {"messages": [{"role": "user", "content": "x"}]}
            assert _post(server.base_url + "/chat/completions", payload)[0] == 503
            assert _post(server.base_url + "/chat/completions", payload)[0] == 503
            status, body = _post(server.base_url + "/chat/completions", payload)
            assert status == 200 and body["choices"][0]["message"]["content"] == "echo: x"


def test_a_busy_port_is_a_clear_error(served) -> None:
    adapter = resolve_adapter("builtin/oracle")
    with pytest.raises(OSError, match=r"cannot serve on 127\.0\.0\.1"):
        AdapterServer(adapter, port=served.port).start()


def test_serve_command_reports_a_bad_spec(monkeypatch) -> None:
    from harness import registry
    from harness.cli.serve import serve_command

    monkeypatch.setitem(
        registry.BUILTIN_ADAPTERS,
        "local",
        registry.Registered("local", "local GGUF models", "harness.adapters.local:create"),
    )

    result = CliRunner().invoke(serve_command, ["local/no-such-model", "--port", "0"])
    assert result.exit_code != 0
    assert "unknown local model 'no-such-model'" in str(result.exception)


def test_serve_command_serves_until_terminated(upstream) -> None:
    import os
    import signal
    import socket
    import subprocess
    import sys
    import time
    from pathlib import Path

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    root = Path(__file__).resolve().parents[2]
    env = {**os.environ, "PYTHONPATH": f"{root}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    command = [
        sys.executable,
        "-c",
        "from harness.cli.serve import serve_command; serve_command()",
        f"openai-compatible/up@{upstream.base_url}",
        "--port",
        str(port),
        "--name",
        "proxy",
    ]
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        base = f"http://127.0.0.1:{port}/v1"
        deadline = time.monotonic() + 60
        while True:
            try:
                with urllib.request.urlopen(base + "/models", timeout=5) as response:
                    assert json.loads(response.read())["data"][0]["id"] == "proxy"
                break
            except OSError:
                assert process.poll() is None, process.stderr.read().decode() if process.stderr else ""
                assert time.monotonic() < deadline, "frontier serve did not start within 60 s"
                time.sleep(0.2)
        status, body = _post(base + "/chat/completions", {"messages": [{"role": "user", "content": "ping"}]})
        assert status == 200 and body["choices"][0]["message"]["content"] == "echo: ping"
    finally:
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=30)
    assert f"serving proxy on http://127.0.0.1:{port}/v1" in stderr.decode()
