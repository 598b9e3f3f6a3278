"""``openai-compatible/<model>@<base_url>``: a lean aiohttp client for vLLM, llama.cpp, Ollama and friends.

One HTTP session per adapter with a large connection pool; no per-call client
construction, so thousands of concurrent requests cost little CPU.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from typing import Any

from harness.adapters.openai_format import generation_from_openai, request_to_openai
from harness.errors import AdapterError, ConfigError, TransientError
from harness.types import Generation, GenerateRequest

TRANSIENT_STATUS = frozenset({408, 409, 425, 429, 500, 502, 503, 504, 520, 522, 524, 529})
API_KEY_ENV = "OPENAI_COMPATIBLE_API_KEY"


class OpenAICompatibleAdapter:
    """Chat completions against any OpenAI-compatible server."""

    capabilities = frozenset({"chat", "tools", "logprobs"})

    def __init__(self, model: str, base_url: str, api_key: str | None = None, max_connections: int = 512) -> None:
        self.model = model
        self.base_url = base_url.rstrip("/")
        self.name = f"openai-compatible/{model}@{self.base_url}"
        self.api_key = api_key if api_key is not None else os.environ.get(API_KEY_ENV)
        self.max_connections = max_connections
        self._session: Any = None

    def _client(self) -> Any:
        import aiohttp

        if self._session is None or self._session.closed:
            headers = {"Content-Type": "application/json"}
            if self.api_key:
                headers["Authorization"] = f"Bearer {self.api_key}"
            connector = aiohttp.TCPConnector(limit=self.max_connections, ttl_dns_cache=300)
            self._session = aiohttp.ClientSession(headers=headers, connector=connector,
                                                  timeout=aiohttp.ClientTimeout(total=None))
        return self._session

    async def generate(self, request: GenerateRequest) -> Generation:
        """POST the request to ``/chat/completions`` and parse the answer."""
        import aiohttp

        payload = request_to_openai(request)
        payload["model"] = self.model
        started = time.perf_counter()
        try:
            async with self._client().post(f"{self.base_url}/chat/completions", data=json.dumps(payload)) as response:
                raw = await response.read()
                status = response.status
        except (aiohttp.ClientConnectionError, aiohttp.ClientPayloadError, asyncio.TimeoutError) as exc:
            raise TransientError(f"connection to {self.base_url} failed: {type(exc).__name__}: {exc}") from None
        latency = time.perf_counter() - started
        text = raw.decode("utf-8", errors="replace")
        if status in TRANSIENT_STATUS:
            raise TransientError(f"HTTP {status} from {self.base_url}: {text[:200]}")
        if status >= 400:
            raise AdapterError(f"HTTP {status} from {self.base_url}: {text[:500]}")
        try:
            body = json.loads(text)
        except json.JSONDecodeError as exc:
            raise TransientError(f"malformed JSON from {self.base_url} ({exc.msg} at {exc.pos}): {text[:120]!r}") from None
        return generation_from_openai(body, latency_s=latency)

    async def aclose(self) -> None:
        """Close the HTTP session."""
        if self._session is not None and not self._session.closed:
            await self._session.close()


def create(rest: str, **options: Any) -> OpenAICompatibleAdapter:
    """Build from ``<model>@<base_url>``."""
    model, sep, base_url = rest.partition("@")
    if not sep or not model or not base_url.startswith(("http://", "https://")):
        raise ConfigError(
            f"openai-compatible spec must be 'openai-compatible/<model>@<http(s)://host:port/v1>', got {rest!r}"
        )
    return OpenAICompatibleAdapter(model, base_url)
