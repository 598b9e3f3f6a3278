"""Shared pieces of the interop tests: loopback responders and inspect environment variables."""

from __future__ import annotations

import os
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from harness.task import Task
from harness.testing.openai_server import Reply
from harness.testing.responders import arith_responder
from harness.types import GenerateRequest, Generation, Message, Sample, ToolCall

SERVER_NAME = "loop"
INSPECT_MODEL = f"openai-api/{SERVER_NAME}/test-model"


@contextmanager
def inspect_env(base_url: str) -> Iterator[dict[str, str]]:
    """``LOOP_BASE_URL``/``LOOP_API_KEY`` for inspect's ``openai-api/loop/...`` provider, restored afterwards."""
    keys = {f"{SERVER_NAME.upper()}_BASE_URL": base_url, f"{SERVER_NAME.upper()}_API_KEY": "test-key"}
    saved = {k: os.environ.get(k) for k in keys}
    os.environ.update(keys)
    try:
        yield keys
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def mixed_arith_responder() -> Any:
    """Right, wrong (every third) and unparseable (a prompt-determined fifth) answers to demo/arith."""
    solve = arith_responder(wrong_every=3)

    def respond(body: dict[str, Any]) -> Reply | str:
        prompt = " ".join(str(m.get("content") or "") for m in body.get("messages", []) if m.get("role") == "user")
        if zlib.crc32(prompt.encode()) % 5 == 1:
            return "I would rather not say."
        return solve(body)

    return respond


def _messages(body: dict[str, Any]) -> tuple[Message, ...]:
    messages = []
    for m in body.get("messages", []):
        calls = tuple(
            ToolCall(id=c["id"], name=c["function"]["name"], arguments=c["function"]["arguments"])
            for c in m.get("tool_calls") or []
        )
        content = m.get("content")
        if isinstance(content, list):
            content = "".join(part.get("text", "") for part in content if isinstance(part, dict))
        messages.append(Message(role=m["role"], content=content, tool_calls=calls, tool_call_id=m.get("tool_call_id")))
    return tuple(messages)


def first_user_turn(sample: Sample) -> str:
    """What the first user message of ``sample``'s conversation says (its last input message)."""
    return sample.messages()[-1].content or ""


def oracle_responder(task: Task, limit: int, opening: Callable[[Sample], str] = first_user_turn) -> Any:
    """A loopback 'model' answering with the task's reference output for the sample whose ``opening`` it sees."""
    samples = {opening(s): s for s in list(task.samples())[:limit]}

    def respond(body: dict[str, Any]) -> Reply:
        messages = _messages(body)
        first_user = next(m.content for m in messages if m.role == "user")
        sample = samples[first_user]
        answer = task.reference_output(sample, GenerateRequest(messages=messages))
        generation = answer if isinstance(answer, Generation) else Generation(text=answer)
        return Reply(
            text=generation.text,
            tool_calls=[{"id": c.id, "name": c.name, "arguments": c.arguments} for c in generation.tool_calls],
        )

    return respond
