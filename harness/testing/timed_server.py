"""A loopback OpenAI-compatible server with a known speed, for throughput tests, sweeps and benchmarks.

Every reply holds exactly ``tokens`` whitespace tokens (its ``usage.completion_tokens``) and is sent
after ``delay_s + steps * step_delay_s`` seconds, so a client's measured tokens per second can be
checked against the true rate ``tokens / delay``. ``steps`` stands for a diffusion LM's denoising
steps: a request's ``steps`` field (``extra_body``) replaces the server's, the reply reports it as
``steps`` and ``nfe``, and echoes every field of the request that OpenAI's API does not define under
``echo``. It answers ``demo/arith`` problems by applying their first ``steps`` operations, so fewer
steps are faster and less accurate. ``stream: true`` is answered with server-sent events: the first
token after the delay, then the rest.

As a process (an engine command for ``frontier sweep --engine``):
``python -m harness.testing.timed_server --port 8012 --tokens 16 --step-delay 0.01 --steps 4``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import threading
from typing import Any

from harness.testing.openai_server import OpenAIServer, Reply

OPENAI_REQUEST_FIELDS = frozenset(
    {
        "model", "messages", "max_tokens", "max_completion_tokens", "temperature", "top_p", "n", "stop", "seed",
        "tools", "tool_choice", "logprobs", "top_logprobs", "stream", "stream_options", "presence_penalty",
        "frequency_penalty", "user", "response_format",
    }
)  # fmt: skip
OPERATION = re.compile(r"(Add|Subtract|Multiply by) (\d+)\.")
START = re.compile(r"Start with (-?\d+)\.")
MAX_STEPS = 10_000


def partial_answer(prompt: str, steps: int) -> int:
    """The value of a ``demo/arith`` problem after its first ``steps`` operations (0 for any other prompt)."""
    start = START.search(prompt)
    if start is None:
        return 0
    value = int(start.group(1))
    for name, operand in OPERATION.findall(prompt)[:steps]:
        k = int(operand)
        value = value + k if name == "Add" else value - k if name == "Subtract" else value * k
    return value


class TimedServer(OpenAIServer):
    """The loopback server answering at a known rate (see the module docstring)."""

    def __init__(self, tokens: int = 16, delay_s: float = 0.0, step_delay_s: float = 0.0, steps: int = 1, **kw: Any):
        super().__init__(responder=self._answer, **kw)
        self.tokens = tokens
        self.delay_s = delay_s
        self.step_delay_s = step_delay_s
        self.steps = steps

    def steps_of(self, body: dict[str, Any]) -> int:
        """The request's steps (its ``steps`` field when a whole number from 1 to 10,000), else the server's."""
        steps = body.get("steps")
        if isinstance(steps, int) and not isinstance(steps, bool) and 1 <= steps <= MAX_STEPS:
            return steps
        return self.steps

    def delay_of(self, body: dict[str, Any]) -> float:
        """Seconds the reply to ``body`` waits before its first token."""
        return self.delay_s + self.steps_of(body) * self.step_delay_s

    def _answer(self, body: dict[str, Any]) -> Reply:
        prompt = " ".join(str(m.get("content") or "") for m in body.get("messages", []) if m.get("role") == "user")
        answer = f"ANSWER: {partial_answer(prompt, self.steps_of(body))}"
        filler = " ".join(["tok"] * max(0, self.tokens - 2))
        return Reply(text=f"{filler}\n{answer}" if filler else answer)  # the answer on its own last line

    def chat_body(self, body: dict[str, Any], number: int) -> dict[str, Any]:
        """The usual reply, with the steps it took and the request's own extra fields echoed."""
        reply = super().chat_body(body, number)
        steps = self.steps_of(body)
        echoed = {key: value for key, value in body.items() if key not in OPENAI_REQUEST_FIELDS}
        return {**reply, "steps": steps, "nfe": steps, "echo": echoed}

    async def _handle_chat(self, request: Any) -> Any:
        from aiohttp import web

        body = await request.json()
        number = self._next_number(body)
        reply = self.chat_body(body, number)
        await asyncio.sleep(self.delay_of(body))
        if not body.get("stream"):
            return web.json_response(reply)
        stream = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
        await stream.prepare(request)
        for word in re.findall(r"\s*\S+", str(reply["choices"][0]["message"]["content"] or "")):
            delta = {"content": word}
            await stream.write(_event({"choices": [{"index": 0, "delta": delta, "finish_reason": None}]}))
        last = {key: value for key, value in reply.items() if key != "choices"}
        await stream.write(_event({**last, "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}]}))
        await stream.write(b"data: [DONE]\n\n")
        return stream


def _event(data: dict[str, Any]) -> bytes:
    return f"data: {json.dumps(data)}\n\n".encode()


def main() -> None:
    """Serve in the foreground until killed."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=8012)
    parser.add_argument("--tokens", type=int, default=16, help="tokens in every reply")
    parser.add_argument("--delay", type=float, default=0.0, help="seconds before every reply")
    parser.add_argument("--step-delay", type=float, default=0.0, help="seconds per step before every reply")
    parser.add_argument("--steps", type=int, default=1, help="steps of a request that names none")
    args = parser.parse_args()
    server = TimedServer(args.tokens, args.delay, args.step_delay, args.steps, port=args.port).start()
    print(f"serving on {server.base_url}", flush=True)
    threading.Event().wait()


if __name__ == "__main__":
    main()
