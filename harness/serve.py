"""``frontier serve``: an OpenAI-compatible HTTP server over any adapter spec.

Endpoints: ``POST /v1/chat/completions`` (with tool calls, logprobs, ``n`` and
``stream``), ``POST /v1/completions`` (plain text; with a ``local/`` model also
``echo`` + ``logprobs`` for prompt log-probabilities, as lm-eval's loglikelihood
requests need) and ``GET /v1/models``. Any model name in a request is accepted: the
server serves one adapter, and reports it under ``model_id``. Errors come back in
OpenAI's shape: 400 for a malformed request or a permanent model failure, 503 for a
transient one. Each request is logged at INFO on the ``harness.serve`` logger (client,
method, path, status, seconds); ``frontier serve`` prints those lines on stderr.
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from harness.adapters.base import ModelAdapter, close_adapter
from harness.errors import FrontierError, TransientError
from harness.json_input import JsonInputError, parse_json
from harness.serve_format import (
    MAX_CHOICES,
    BadRequest,
    chat_response,
    chat_stream_chunks,
    generation_request,
    int_in,
    parse_messages,
    text_offsets,
    usage_json,
)
from harness.types import GenerateRequest, Message

if TYPE_CHECKING:
    from aiohttp import web

Handler = Callable[[dict[str, Any], "web.Request"], Awaitable["web.StreamResponse"]]
"""A request handler: the parsed JSON body and the request to the response."""

MAX_BODY_BYTES = 64 * 1024 * 1024
log = logging.getLogger(__name__)


def _log_request(request: web.Request, status: int, started: float) -> None:
    log.info(
        "%s %s %s %d %.3fs", request.remote or "-", request.method, request.path, status, time.perf_counter() - started
    )


def _error(status: int, message: str, kind: str) -> web.Response:
    from aiohttp import web

    return web.json_response({"error": {"message": message, "type": kind, "param": None, "code": None}}, status=status)


class OpenAIApp:
    """The request handlers for one adapter."""

    def __init__(self, adapter: ModelAdapter, model_id: str) -> None:
        self.adapter = adapter
        self.model_id = model_id

    async def _body(self, request: web.Request) -> dict[str, Any]:
        try:
            body = parse_json(await request.read(), "the body")
        except JsonInputError as exc:
            raise BadRequest(str(exc)) from None
        if not isinstance(body, dict):
            raise BadRequest("the body must be a JSON object")
        return body

    async def _guarded(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        started = time.perf_counter()
        response = await self._answer(request, handler)
        _log_request(request, response.status, started)
        return response

    async def _answer(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        try:
            return await handler(await self._body(request), request)
        except BadRequest as exc:
            return _error(400, str(exc), "invalid_request_error")
        except TransientError as exc:
            return _error(503, str(exc), "server_error")
        except FrontierError as exc:
            return _error(400, str(exc), "invalid_request_error")
        except Exception as exc:
            return _error(500, f"{type(exc).__name__}: {exc}", "server_error")

    async def chat(self, request: web.Request) -> web.StreamResponse:
        """``POST /v1/chat/completions``."""
        return await self._guarded(request, self._chat)

    async def _chat(self, body: dict[str, Any], request: web.Request) -> web.StreamResponse:
        from aiohttp import web

        generate_request = generation_request(body, parse_messages(body.get("messages")))
        generation = await self.adapter.generate(generate_request)
        response = chat_response(generation, self.model_id, generate_request)
        if not body.get("stream"):
            return web.json_response(response)
        include_usage = bool((body.get("stream_options") or {}).get("include_usage"))
        return await self._stream(request, chat_stream_chunks(response, include_usage))

    async def _stream(self, request: web.Request, chunks: list[dict[str, Any]]) -> web.StreamResponse:
        from aiohttp import web

        stream = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-cache"})
        await stream.prepare(request)
        for chunk in chunks:
            await stream.write(f"data: {json.dumps(chunk)}\n\n".encode())
        await stream.write(b"data: [DONE]\n\n")
        await stream.write_eof()
        return stream

    async def completions(self, request: web.Request) -> web.StreamResponse:
        """``POST /v1/completions``."""
        return await self._guarded(request, self._completions)

    async def _completions(self, body: dict[str, Any], request: web.Request) -> web.StreamResponse:
        from aiohttp import web

        prompts = body.get("prompt", "")
        prompts = [prompts] if isinstance(prompts, str) else prompts
        if not isinstance(prompts, list) or not prompts or not all(isinstance(p, str) for p in prompts):
            raise BadRequest(
                "'prompt' must be a string or a list of strings (token-id prompts are not supported; "
                "with lm-eval pass tokenized_requests=False)"
            )
        logprobs = body.get("logprobs")
        if logprobs is not None and (
            isinstance(logprobs, bool) or not isinstance(logprobs, int) or not 0 <= logprobs <= 20
        ):
            raise BadRequest(f"'logprobs' must be an integer from 0 to 20, got {logprobs!r}")
        settings = generation_request(
            {**body, "max_tokens": body.get("max_tokens", 16), "n": 1, "logprobs": logprobs is not None},
            (Message(role="user", content=""),),
        )
        n = int_in(body, "n", 1, MAX_CHOICES) or 1
        choices: list[dict[str, Any]] = []
        prompt_tokens = completion_tokens = 0
        for prompt in prompts:
            for copy in range(n):
                request_settings = (
                    settings if settings.seed is None else settings.model_copy(update={"seed": settings.seed + copy})
                )
                choice, used = await self._complete_one(prompt, request_settings, logprobs, bool(body.get("echo")))
                choices.append(choice | {"index": len(choices)})
                prompt_tokens += used[0] if copy == 0 else 0
                completion_tokens += used[1]
        response = {
            "id": f"cmpl-{uuid.uuid4().hex[:24]}",
            "object": "text_completion",
            "created": int(time.time()),
            "model": self.model_id,
            "choices": choices,
            "usage": usage_json(prompt_tokens, completion_tokens),
        }
        if not body.get("stream"):
            return web.json_response(response)
        base = {key: response[key] for key in ("id", "object", "created", "model")}
        return await self._stream(request, [base | {"choices": [choice]} for choice in choices])

    async def _complete_one(
        self, prompt: str, settings: GenerateRequest, logprobs: int | None, echo: bool
    ) -> tuple[dict[str, Any], tuple[int, int]]:
        complete = getattr(self.adapter, "complete", None)
        if complete is not None:
            result = await complete(prompt, settings, logprobs=logprobs, echo=echo)
            choice: dict[str, Any] = {"text": result.text, "finish_reason": result.finish_reason, "logprobs": None}
            if logprobs is not None:
                choice["logprobs"] = {
                    "tokens": result.tokens,
                    "token_logprobs": result.token_logprobs,
                    "top_logprobs": result.top_logprobs or None,
                    "text_offset": text_offsets(result.tokens, 0 if echo else len(prompt)),
                }
            return choice, (result.prompt_tokens, result.completion_tokens)
        if echo and logprobs is not None:
            raise BadRequest(f"{self.adapter.name} cannot score prompts (echo with logprobs); serve a local/ model")
        generation = await self.adapter.generate(
            settings.model_copy(update={"messages": (Message(role="user", content=prompt),)})
        )
        choice = {
            "text": (prompt + generation.text) if echo else generation.text,
            "finish_reason": generation.finish_reason or "stop",
            "logprobs": None,
        }
        if logprobs is not None and generation.logprobs is not None:
            tokens = [t.token for t in generation.logprobs]
            choice["logprobs"] = {
                "tokens": tokens,
                "token_logprobs": [t.logprob for t in generation.logprobs],
                "top_logprobs": None,
                "text_offset": text_offsets(tokens, len(prompt) if echo else 0),
            }
        return choice, (generation.usage.input_tokens, generation.usage.output_tokens)

    async def models(self, request: web.Request) -> web.Response:
        """``GET /v1/models``."""
        from aiohttp import web

        _log_request(request, 200, time.perf_counter())
        return web.json_response(
            {
                "object": "list",
                "data": [{"id": self.model_id, "object": "model", "created": 0, "owned_by": "frontier-evals"}],
            }
        )

    def build(self) -> web.Application:
        """The aiohttp application; closing it closes the adapter."""
        from aiohttp import web

        app = web.Application(client_max_size=MAX_BODY_BYTES)
        app.router.add_post("/v1/chat/completions", self.chat)
        app.router.add_post("/v1/completions", self.completions)
        app.router.add_get("/v1/models", self.models)

        async def close_on_cleanup(_: web.Application) -> None:
            await close_adapter(self.adapter)

        app.on_cleanup.append(close_on_cleanup)
        return app


class AdapterServer:
    """The server on a background thread (``with AdapterServer(adapter) as server: server.base_url``)."""

    def __init__(
        self, adapter: ModelAdapter, model_id: str | None = None, host: str = "127.0.0.1", port: int = 0
    ) -> None:
        self.app = OpenAIApp(adapter, model_id or adapter.name)
        self.host = host
        self.port = port
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._failure: BaseException | None = None

    @property
    def base_url(self) -> str:
        """The ``/v1`` base URL clients use."""
        return f"http://{self.host}:{self.port}/v1"

    def _serve(self) -> None:
        from aiohttp import web

        loop = self._loop = asyncio.new_event_loop()
        runner = web.AppRunner(self.app.build(), access_log=None)
        try:
            loop.run_until_complete(runner.setup())
            site = web.TCPSite(runner, self.host, self.port)
            loop.run_until_complete(site.start())
            self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        except BaseException as exc:
            self._failure = exc
            self._ready.set()
            loop.close()
            return
        self._ready.set()
        loop.run_forever()
        loop.run_until_complete(runner.cleanup())
        loop.close()

    def start(self) -> AdapterServer:
        """Serve on a daemon thread; returns once the port is bound."""
        self._thread = threading.Thread(target=self._serve, name="frontier-serve", daemon=True)
        self._thread.start()
        if not self._ready.wait(30):
            raise RuntimeError("the server did not start within 30 s")
        if self._failure is not None:
            raise OSError(f"cannot serve on {self.host}:{self.port}: {self._failure}")
        return self

    def stop(self) -> None:
        """Stop serving and join the thread."""
        if self._loop is not None and self._loop.is_running():
            self._loop.call_soon_threadsafe(self._loop.stop)
        if self._thread is not None:
            self._thread.join(30)

    def __enter__(self) -> AdapterServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def serve_forever(
    adapter: ModelAdapter, host: str, port: int, model_id: str | None = None, announce: Callable[[str], None] = print
) -> None:
    """Serve in the foreground until interrupted (Ctrl-C or SIGTERM)."""
    from aiohttp import web

    from harness.logs import show_from

    app = OpenAIApp(adapter, model_id or adapter.name).build()
    show_from(log.name, logging.INFO)  # the request lines, through the command's one handler
    line = f"serving {model_id or adapter.name} on http://{host}:{port}/v1 (Ctrl-C to stop)"
    # aiohttp calls ``print`` once its sites listen: a client that waits for the line finds the port open.
    web.run_app(app, host=host, port=port, print=lambda _started: announce(line), access_log=None)
