"""Responders for the loopback server: deterministic fake models for tests and benchmarks."""

from __future__ import annotations

import re
import zlib
from typing import Any

from harness.testing.openai_server import Reply

_START = re.compile(r"Start with (-?\d+)\.")
_STEP = re.compile(r"(Add|Subtract|Multiply by) (\d+)\.")


def solve_arith(prompt: str) -> int | None:
    """The answer to a ``demo/arith`` prompt, or None when the prompt is not one."""
    start = _START.search(prompt)
    if start is None:
        return None
    value = int(start.group(1))
    for operation, number in _STEP.findall(prompt[start.end() :]):
        k = int(number)
        value = value + k if operation == "Add" else value - k if operation == "Subtract" else value * k
    return value


def arith_responder(wrong_every: int = 3) -> Any:
    """A model that solves ``demo/arith`` but answers wrong on a fixed, prompt-determined subset."""

    def respond(body: dict[str, Any]) -> Reply:
        prompt = " ".join(str(m.get("content") or "") for m in body.get("messages", []) if m.get("role") == "user")
        answer = solve_arith(prompt)
        if answer is None:
            return Reply(text="I do not know.")
        if wrong_every and zlib.crc32(prompt.encode()) % wrong_every == 0:
            answer += 1
        return Reply(text=f"Working it through step by step.\nANSWER: {answer}")

    return respond
