"""``openai-compatible/<model>@<base_url>``: a lean aiohttp client for vLLM, llama.cpp, Ollama and friends.

One HTTP session per adapter with a large connection pool; no per-call client
construction, so thousands of concurrent requests cost little CPU.

Options: ``-M stream=true`` streams each reply (its time to the first token is recorded);
``-M extra_body='{"steps": 64}'`` adds fields to every request body (a server's own parameters,
such as a diffusion LM's steps, block length or threshold); the request's own fields win.
"""

from __future__ import annotations

import json
import os
import time
from typing import Any

from harness.adapters.base import PROMPT_LOGPROBS_FLAG, checked_options
from harness.adapters.openai_format import enforce_max_tokens, generation_from_openai, request_to_openai
from harness.adapters.openai_stream import STREAM_PARAMS, StreamedReply, read_event_stream
from harness.errors import AdapterError, ConfigError, TransientError
from harness.json_input import JsonInputError, parse_json
from harness.types import GenerateRequest, Generation, Message, TokenLogprob, Usage

TRANSIENT_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504, 520, 522, 524, 529})
API_KEY_ENV = "OPENAI_COMPATIBLE_API_KEY"
MAX_RESPONSE_ENV = "FRONTIER_MAX_RESPONSE_BYTES"
DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024


def max_response_bytes() -> int:
    """The cap on one response body: ``$FRONTIER_MAX_RESPONSE_BYTES``, else 8 MiB."""
    raw = os.environ.get(MAX_RESPONSE_ENV)
    if not raw:
        return DEFAULT_MAX_RESPONSE_BYTES
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{MAX_RESPONSE_ENV} must be a number of bytes, got {raw!r}") from None
    if value < 1024:
        raise ConfigError(f"{MAX_RESPONSE_ENV} must be at least 1024 bytes, got {value}")
    return value


async def read_capped(response: Any, cap: int, source: str) -> bytes:
    """The body of an aiohttp response, read no further than ``cap`` bytes.

    A longer body is cut there and the call fails with an AdapterError that records the
    cut (a model that ignores ``max_tokens`` must not fill the memory and the log).
    """
    declared = response.content_length
    if declared is not None and declared > cap:
        raise AdapterError(
            f"response from {source} is {declared:,} bytes, over the {cap:,}-byte cap "
            f"(not read; raise {MAX_RESPONSE_ENV} to accept it)"
        )
    chunks: list[bytes] = []
    size = 0
    async for chunk in response.content.iter_chunked(65536):
        size += len(chunk)
        if size > cap:
            raise AdapterError(
                f"response from {source} exceeds the {cap:,}-byte cap (cut after {size:,} bytes; "
                f"raise {MAX_RESPONSE_ENV} to accept it)"
            )
        chunks.append(chunk)
    return b"".join(chunks)


def render_chatml(messages: tuple[Message, ...]) -> str:
    """Messages in the ChatML template, ending with an open assistant turn (for ``/completions``)."""
    parts = [f"<|im_start|>{m.role}\n{m.content or ''}<|im_end|>\n" for m in messages]
    return "".join(parts) + "<|im_start|>assistant\n"


def continuation_logprobs(body: object, prefix_length: int) -> tuple[tuple[TokenLogprob, ...], Usage]:
    """The logprobs of the tokens after ``prefix_length`` characters in an echoed completion."""
    if not isinstance(body, dict):
        raise AdapterError(f"malformed prompt-logprobs response: a {type(body).__name__}, not a JSON object")
    try:
        choice = body["choices"][0]
        raw = choice["logprobs"]
        tokens, values, offsets = raw["tokens"], raw["token_logprobs"], raw.get("text_offset")
        usage = body.get("usage") or {}
    except (KeyError, IndexError, TypeError) as exc:
        raise AdapterError(f"malformed prompt-logprobs response: missing {exc}") from None
    if not isinstance(offsets, list) or not (len(offsets) == len(tokens) == len(values)):
        raise AdapterError(
            "prompt-logprobs response lacks a 'text_offset' per token; "
            "the server cannot locate the continuation's tokens"
        )
    scored = []
    for token, value, offset in zip(tokens, values, offsets, strict=True):
        if isinstance(offset, int) and offset >= prefix_length:
            if not isinstance(value, (int, float)):
                raise AdapterError(f"prompt-logprobs response has no logprob for continuation token {token!r}")
            scored.append(TokenLogprob(token=str(token), logprob=float(value)))
    reported = usage.get("prompt_tokens") if isinstance(usage, dict) else None
    return tuple(scored), Usage.model_validate({"input_tokens": reported})


class OpenAICompatibleAdapter:
    """Chat completions against any OpenAI-compatible server."""

    capabilities = frozenset({"chat", "tools", "logprobs", "prompt_logprobs"})

    def __init__(
        self,
        model: str,
        base_url: str,
        api_key: str | None = None,
        max_connections: int = 512,
        max_body_bytes: int | None = None,
        stream: bool = False,
        extra_body: dict[str, Any] | None = None,
    ) -> None:
        self.model = model
        self.stream = stream
        self.extra_body = dict(extra_body or {})
        self.max_body_bytes = max_body_bytes or max_response_bytes()
        self.base_url = base_url.rstrip("/")
        self.name = f"openai-compatible/{model}@{self.base_url}"
        self.api_key = api_key if api_key is not None else os.environ.get(API_KEY_ENV)
        self.max_connections = max_connections
        self.batch_requested = False  # -M batch=true: answered through the Batch API (harness.batch)
        self._session: Any = None

    def _client(self) -> Any:
        import aiohttp

        if self._session is None or self._session.closed:
            headers = {"Content-Type": "application/json"}
            if self.api_key:
                headers["Authorization"] = f"Bearer {self.api_key}"
            connector = aiohttp.TCPConnector(limit=self.max_connections, ttl_dns_cache=300)
            self._session = aiohttp.ClientSession(
                headers=headers, connector=connector, timeout=aiohttp.ClientTimeout(total=None)
            )
        return self._session

    async def generate(self, request: GenerateRequest) -> Generation:
        """POST the request to ``/chat/completions`` and parse the answer (prompt-logprob requests: see below)."""
        if request.extra.get(PROMPT_LOGPROBS_FLAG):
            return await self._prompt_logprobs(request)
        payload = {**self.extra_body, **request_to_openai(request), "model": self.model}
        if self.stream:
            payload.update(STREAM_PARAMS)
        body, latency = await self._post("chat/completions", payload)
        if isinstance(body, StreamedReply):
            generation = generation_from_openai(
                body.body(), latency_s=latency, ttft_s=body.ttft_s, text_tokens=body.deltas
            )
        else:
            generation = generation_from_openai(body, latency_s=latency)
        return enforce_max_tokens(generation, request.max_tokens)

    async def _prompt_logprobs(self, request: GenerateRequest) -> Generation:
        """Score the final assistant message under the messages before it through ``/completions``.

        The chat is rendered in the ChatML template and sent with ``echo``, ``logprobs: 0`` and
        ``max_tokens: 0``; the continuation's tokens are those at or after its text offset.
        """
        *context, last = request.messages
        if last.role != "assistant" or not context:
            raise AdapterError("a prompt-logprobs request must end with the assistant message to score")
        prefix = render_chatml(tuple(context))
        continuation = last.content or ""
        payload = {
            "model": self.model,
            "prompt": prefix + continuation,
            "echo": True,
            "logprobs": 0,
            "max_tokens": 0,
            "temperature": 0,
        }
        body, latency = await self._post("completions", payload)
        logprobs, usage = continuation_logprobs(body, len(prefix))
        return Generation(
            text=continuation,
            finish_reason="prompt_logprobs",
            usage=usage,
            latency_s=latency,
            logprobs=logprobs,
            model=body.get("model") if isinstance(body, dict) else None,
        )

    async def _post(self, path: str, payload: dict[str, Any]) -> tuple[Any, float]:
        """POST ``payload`` to ``path``; the decoded JSON body (a :class:`StreamedReply` when the server
        streamed it) and the latency."""
        import aiohttp

        started = time.perf_counter()
        try:
            async with self._client().post(f"{self.base_url}/{path}", data=json.dumps(payload)) as response:
                status = response.status
                if status < 400 and response.content_type == "text/event-stream":
                    streamed = await read_event_stream(response, self.max_body_bytes, self.base_url, started)
                    return streamed, time.perf_counter() - started
                raw = await read_capped(response, self.max_body_bytes, self.base_url)
        except (TimeoutError, aiohttp.ClientConnectionError, aiohttp.ClientPayloadError) as exc:
            raise TransientError(f"connection to {self.base_url} failed: {type(exc).__name__}: {exc}") from None
        latency = time.perf_counter() - started
        text = raw.decode("utf-8", errors="replace")
        if status in TRANSIENT_STATUS:
            raise TransientError(f"HTTP {status} from {self.base_url}: {text[:200]}")
        if status >= 400:
            raise AdapterError(f"HTTP {status} from {self.base_url}: {text[:500]}")
        try:
            body = parse_json(text, f"malformed JSON from {self.base_url}")
        except JsonInputError as exc:  # a body cut short is worth another try; a too deep one is not
            failure = TransientError if exc.syntax else AdapterError
            raise failure(str(exc)[:400]) from None
        return body, latency

    async def aclose(self) -> None:
        """Close the HTTP session."""
        if self._session is not None and not self._session.closed:
            await self._session.close()


def create(rest: str, seed: int = 0, **options: object) -> OpenAICompatibleAdapter:
    """Build from ``<model>@<base_url>``."""
    model, sep, base_url = rest.partition("@")
    if not sep or not model or not base_url.startswith(("http://", "https://")):
        raise ConfigError(
            f"openai-compatible spec must be 'openai-compatible/<model>@<http(s)://host:port/v1>', got {rest!r}"
        )
    checked_options(
        "openai-compatible",
        options,
        {"max_connections": int, "max_body_bytes": int, "batch": bool, "stream": bool, "extra_body": dict},
    )
    limits = {name: value for name, value in options.items() if isinstance(value, int) and not isinstance(value, bool)}
    for name, value in limits.items():
        if value < 1:
            raise ConfigError(f"openai-compatible adapter option {name} must be at least 1, got {value}")
    extra_body = options.get("extra_body")
    adapter = OpenAICompatibleAdapter(
        model,
        base_url,
        max_connections=limits.get("max_connections", 512),
        max_body_bytes=limits.get("max_body_bytes"),
        stream=options.get("stream") is True,
        extra_body=extra_body if isinstance(extra_body, dict) else None,
    )
    adapter.batch_requested = options.get("batch") is True
    return adapter
