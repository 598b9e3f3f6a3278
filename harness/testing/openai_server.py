"""A small OpenAI-compatible HTTP server on 127.0.0.1 for tests and benchmarks.

It serves ``/v1/chat/completions`` (with usage, tool calls and token logprobs),
``/v1/completions`` (with ``echo`` and ``logprobs`` for prompt log-probabilities) and
``/v1/models``. What it answers comes from a ``responder``; it can add latency and
inject faults (429, 500, hangs past the client's timeout, truncated or malformed JSON,
dropped connections) at seeded rates or on a fixed schedule.

Use it in-process (``with OpenAIServer(responder) as server: server.base_url``) or as
a separate process: ``python -m harness.testing.openai_server --port 8011 --latency 0.05``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import threading
import time
import zlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

FAULT_KINDS = ("429", "500", "timeout", "truncated", "malformed", "drop")


@dataclass
class Reply:
    """What the server answers: text and/or tool calls (``{"name", "arguments"}`` dicts).

    ``arguments`` is sent as given: JSON text as OpenAI sends it, or an object as some
    servers and proxies do.
    """

    text: str = ""
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    finish_reason: str | None = None


Responder = Callable[[dict[str, Any]], "Reply | str"]


def echo_responder(body: dict[str, Any]) -> Reply:
    """Answer with the content of the last user message."""
    for message in reversed(body.get("messages", [])):
        if message.get("role") == "user":
            return Reply(text=str(message.get("content") or ""))
    return Reply(text="")


@dataclass
class FaultPlan:
    """Which requests fail and how: seeded per-kind rates, or an explicit schedule.

    ``schedule`` maps the 0-based request number to a fault kind and wins over rates.
    ``hang_s`` is how long a ``timeout`` fault stalls before answering.
    """

    rates: dict[str, float] = field(default_factory=dict)
    schedule: dict[int, str] = field(default_factory=dict)
    seed: int = 0
    hang_s: float = 30.0

    def __post_init__(self) -> None:
        unknown = set(self.rates) | set(self.schedule.values())
        unknown -= set(FAULT_KINDS)
        if unknown:
            raise ValueError(f"unknown fault kinds {sorted(unknown)}; known: {FAULT_KINDS}")
        self._rng = random.Random(self.seed)
        self._lock = threading.Lock()

    def pick(self, request_number: int) -> str | None:
        """The fault for this request, or None."""
        if request_number in self.schedule:
            return self.schedule[request_number]
        with self._lock:
            roll = self._rng.random()
        edge = 0.0
        for kind, rate in self.rates.items():
            edge += rate
            if roll < edge:
                return kind
        return None


def _arguments_text(arguments: object) -> str:
    """Tool-call arguments as text (a responder may send them as a JSON object, as some servers do)."""
    return arguments if isinstance(arguments, str) else json.dumps(arguments)


def count_tokens(text: str) -> int:
    """A whitespace token count: stable, cheap, and good enough for usage figures."""
    return len(text.split())


def fake_logprob(token: str, context: str) -> float:
    """A deterministic log-probability for ``token`` after ``context`` (in (-5, 0])."""
    digest = zlib.crc32(f"{context}\x00{token}".encode())
    return -5.0 * (digest % 10_000) / 10_000


def _token_logprobs(tokens: list[str], context: str) -> list[float]:
    out, seen = [], context
    for token in tokens:
        out.append(fake_logprob(token, seen))
        seen = f"{seen} {token}"
    return out


def _text_offsets(text: str, tokens: list[str]) -> list[int]:
    """Where each whitespace token starts in ``text`` (OpenAI's ``text_offset``)."""
    offsets, position = [], 0
    for token in tokens:
        position = text.find(token, position)
        offsets.append(position)
        position += len(token)
    return offsets


class OpenAIServer:
    """The loopback server; a context manager that runs it on a background thread."""

    def __init__(
        self,
        responder: Responder = echo_responder,
        latency: float = 0.0,
        faults: FaultPlan | None = None,
        port: int = 0,
        host: str = "127.0.0.1",
    ) -> None:
        self.responder = responder
        self.latency = latency
        self.faults = faults or FaultPlan()
        self.host = host
        self.port = port
        self.requests: list[dict[str, Any]] = []
        self.faults_served: list[str] = []
        self._count = 0
        self._lock = threading.Lock()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._runner: Any = None
        self._ready = threading.Event()

    @property
    def base_url(self) -> str:
        """The ``/v1`` base URL that clients should use."""
        return f"http://{self.host}:{self.port}/v1"

    def _next_number(self, body: dict[str, Any]) -> int:
        with self._lock:
            number = self._count
            self._count += 1
            self.requests.append(body)
        return number

    async def _fault_response(self, kind: str, request: Any) -> Any:
        from aiohttp import web

        self.faults_served.append(kind)
        if kind == "429":
            return web.json_response(
                {"error": {"message": "rate limited", "type": "rate_limit"}}, status=429, headers={"Retry-After": "0"}
            )
        if kind == "500":
            return web.json_response({"error": {"message": "internal error"}}, status=500)
        if kind == "timeout":
            await asyncio.sleep(self.faults.hang_s)
            return web.json_response({"error": {"message": "too late"}}, status=504)
        if kind == "truncated":
            return web.Response(
                text='{"id": "x", "choices": [{"message": {"content": "the ans', content_type="application/json"
            )
        if kind == "malformed":
            return web.Response(text="<html>bad gateway</html>", content_type="application/json")
        transport = request.transport
        if transport is not None:
            transport.close()
        return web.Response(status=500)

    async def _admit(self, request: Any) -> tuple[dict[str, Any], int, Any]:
        """Read the body, count the request, wait the latency, and serve its fault if it has one."""
        body = await request.json()
        number = self._next_number(body)
        if self.latency:
            await asyncio.sleep(self.latency)
        fault = self.faults.pick(number)
        return body, number, (await self._fault_response(fault, request) if fault else None)

    async def _handle_chat(self, request: Any) -> Any:
        from aiohttp import web

        body, number, failure = await self._admit(request)
        if failure is not None:
            return failure
        return web.json_response(self.chat_body(body, number))

    def chat_body(self, body: dict[str, Any], number: int) -> dict[str, Any]:
        """The chat-completions response to request ``body`` (the ``number``-th the server saw)."""
        reply = self.responder(body)
        if isinstance(reply, str):
            reply = Reply(text=reply)
        prompt = " ".join(str(m.get("content") or "") for m in body.get("messages", []))
        message: dict[str, Any] = {"role": "assistant", "content": reply.text or None}
        if reply.tool_calls:
            message["tool_calls"] = [
                {
                    "id": call.get("id", f"call_{number}_{i}"),
                    "type": "function",
                    "function": {"name": call["name"], "arguments": call.get("arguments", "{}")},
                }
                for i, call in enumerate(reply.tool_calls)
            ]
        choice: dict[str, Any] = {
            "index": 0,
            "message": message,
            "finish_reason": reply.finish_reason or ("tool_calls" if reply.tool_calls else "stop"),
        }
        if body.get("logprobs"):
            tokens = reply.text.split()
            choice["logprobs"] = {
                "content": [
                    {"token": t, "logprob": lp, "top_logprobs": []}
                    for t, lp in zip(tokens, _token_logprobs(tokens, prompt), strict=True)
                ]
            }
        completion_tokens = count_tokens(reply.text) + sum(
            count_tokens(_arguments_text(c.get("arguments", ""))) for c in reply.tool_calls
        )
        return {
            "id": f"chatcmpl-{number}",
            "object": "chat.completion",
            "created": int(time.time()),
            "model": body.get("model", "test-model"),
            "choices": [choice] * max(1, int(body.get("n") or 1)),
            "usage": {
                "prompt_tokens": count_tokens(prompt),
                "completion_tokens": completion_tokens,
                "total_tokens": count_tokens(prompt) + completion_tokens,
            },
        }

    async def _handle_completions(self, request: Any) -> Any:
        from aiohttp import web

        body, number, failure = await self._admit(request)
        if failure is not None:
            return failure
        prompt = str(body.get("prompt", ""))
        max_tokens = body.get("max_tokens")
        reply = self.responder({"messages": [{"role": "user", "content": prompt}], **body})
        text = "" if max_tokens == 0 else (reply.text if isinstance(reply, Reply) else str(reply))
        tokens = (prompt.split() if body.get("echo") else []) + text.split()
        choice: dict[str, Any] = {
            "index": 0,
            "text": (prompt + text) if body.get("echo") else text,
            "finish_reason": "stop",
        }
        if body.get("logprobs") is not None:
            values = _token_logprobs(tokens, "")
            if body.get("echo") and values:
                values[0] = None  # type: ignore[call-overload]
            choice["logprobs"] = {
                "tokens": tokens,
                "token_logprobs": values,
                "text_offset": _text_offsets(choice["text"], tokens),
            }
        return web.json_response(
            {
                "id": f"cmpl-{number}",
                "object": "text_completion",
                "model": body.get("model", "test-model"),
                "choices": [choice],
                "usage": {
                    "prompt_tokens": count_tokens(prompt),
                    "completion_tokens": count_tokens(text),
                    "total_tokens": count_tokens(prompt) + count_tokens(text),
                },
            }
        )

    async def _handle_models(self, request: Any) -> Any:
        from aiohttp import web

        return web.json_response({"object": "list", "data": [{"id": "test-model", "object": "model"}]})

    def build_app(self) -> Any:
        """The aiohttp application."""
        from aiohttp import web

        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_post("/v1/chat/completions", self._handle_chat)
        app.router.add_post("/v1/completions", self._handle_completions)
        app.router.add_get("/v1/models", self._handle_models)
        return app

    async def _start(self) -> None:
        from aiohttp import web

        self._runner = web.AppRunner(self.build_app(), access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, self.port)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]

    def _serve(self) -> None:
        self._loop = asyncio.new_event_loop()
        self._loop.run_until_complete(self._start())
        self._ready.set()
        self._loop.run_forever()
        self._loop.run_until_complete(_cancel_remaining_tasks())
        self._loop.run_until_complete(self._runner.cleanup())
        self._loop.close()

    def start(self) -> OpenAIServer:
        """Start serving on a daemon thread; returns once the port is bound."""
        self._thread = threading.Thread(target=self._serve, name="openai-test-server", daemon=True)
        self._thread.start()
        if not self._ready.wait(10):
            raise RuntimeError("test server did not start")
        return self

    def stop(self) -> None:
        """Stop serving and join the thread."""
        if self._loop is not None:
            self._loop.call_soon_threadsafe(self._loop.stop)
        if self._thread is not None:
            self._thread.join(10)

    def __enter__(self) -> OpenAIServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


async def _cancel_remaining_tasks() -> None:
    """Cancel and await every other task of the loop: the handlers still running when the server stops.

    A handler that hangs by design (a fault, a batch whose creation never answers) would hold the
    runner's cleanup for its whole shutdown timeout, past ``stop``'s wait for the thread, and the loop
    would then be closed over it: the task was garbage-collected later, logging "Task was destroyed
    but it is pending!" in the middle of whatever test or command ran then.
    """
    tasks = [task for task in asyncio.all_tasks() if task is not asyncio.current_task()]
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)


def main() -> None:
    """Run the server in the foreground (for benchmarks and manual checks)."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=8011)
    parser.add_argument("--latency", type=float, default=0.0, help="seconds of delay per request")
    parser.add_argument("--fault-rate", type=float, default=0.0, help="share of requests answered with a 500")
    args = parser.parse_args()
    server = OpenAIServer(
        latency=args.latency,
        port=args.port,
        faults=FaultPlan(rates={"500": args.fault_rate}) if args.fault_rate else None,
    )
    server.start()
    print(f"serving on {server.base_url}", flush=True)
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        server.stop()


if __name__ == "__main__":
    main()
