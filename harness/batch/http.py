"""The HTTP side of batch backends: JSON calls, a file upload, and JSONL results read line by line.

Statuses are read as the chat adapters read them: 429 and 5xx (and a dropped connection) are
:class:`TransientError`, other 4xx an :class:`AdapterError` quoting the body; bodies are capped.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Mapping
from typing import Any

from harness.adapters.openai_compatible import TRANSIENT_STATUS, max_response_bytes, read_capped
from harness.errors import AdapterError, TransientError
from harness.json_input import JsonInputError, parse_json


class BatchHTTP:
    """One aiohttp session against one API host, sending ``headers`` with every request."""

    def __init__(self, base_url: str, headers: Mapping[str, str]) -> None:
        self.base_url = base_url.rstrip("/")
        self.headers = dict(headers)
        self._session: Any = None

    def _client(self) -> Any:
        import aiohttp

        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(headers=self.headers, timeout=aiohttp.ClientTimeout(total=None))
        return self._session

    def url(self, path: str) -> str:
        """``path`` under the base URL (an absolute URL is kept)."""
        return path if path.startswith(("http://", "https://")) else f"{self.base_url}/{path.lstrip('/')}"

    async def json(self, method: str, path: str, body: object = None, data: Any = None) -> dict[str, Any]:
        """Send one request and return its JSON object body; errors as described in the module docstring."""
        import aiohttp

        url = self.url(path)
        payload = data if data is not None else (None if body is None else json.dumps(body))
        headers = {"Content-Type": "application/json"} if body is not None else None
        try:
            async with self._client().request(method, url, data=payload, headers=headers) as response:
                raw = await read_capped(response, max_response_bytes(), url)
                status = response.status
        except (TimeoutError, aiohttp.ClientConnectionError, aiohttp.ClientPayloadError) as exc:
            raise TransientError(f"{method} {url} failed: {type(exc).__name__}: {exc}") from None
        text = raw.decode("utf-8", errors="replace")
        _raise_for_status(status, method, url, text)
        try:
            decoded = parse_json(text, f"{method} {url}")
        except JsonInputError:
            raise TransientError(f"{method} {url}: malformed JSON: {text[:120]!r}") from None
        if not isinstance(decoded, dict):
            raise AdapterError(f"{method} {url}: expected a JSON object, got {type(decoded).__name__}")
        return decoded

    async def upload(self, path: str, fields: Mapping[str, str], filename: str, content: bytes) -> dict[str, Any]:
        """POST a multipart form with ``fields`` and one file part ``file`` holding ``content``."""
        import aiohttp

        form = aiohttp.FormData()
        for name, value in fields.items():
            form.add_field(name, value)
        form.add_field("file", content, filename=filename, content_type="application/jsonl")
        return await self.json("POST", path, data=form)

    async def lines(self, path: str, max_line_bytes: int) -> AsyncIterator[bytes | None]:
        """The lines of a JSONL body, read as it streams; a line over ``max_line_bytes`` is yielded as None."""
        import aiohttp

        url = self.url(path)
        try:
            async with self._client().get(url) as response:
                if response.status >= 400:
                    text = (await read_capped(response, 65536, url)).decode("utf-8", errors="replace")
                    _raise_for_status(response.status, "GET", url, text)
                async for line in _split_lines(response.content.iter_chunked(65536), max_line_bytes):
                    yield line
        except (TimeoutError, aiohttp.ClientConnectionError, aiohttp.ClientPayloadError) as exc:
            raise TransientError(f"GET {url} failed: {type(exc).__name__}: {exc}") from None

    async def aclose(self) -> None:
        """Close the session."""
        if self._session is not None and not self._session.closed:
            await self._session.close()


def _raise_for_status(status: int, method: str, url: str, text: str) -> None:
    if status in TRANSIENT_STATUS:
        raise TransientError(f"HTTP {status} from {method} {url}: {text[:200]}")
    if status >= 400:
        raise AdapterError(f"HTTP {status} from {method} {url}: {text[:500]}")


async def _split_lines(chunks: AsyncIterator[bytes], cap: int) -> AsyncIterator[bytes | None]:
    """Non-empty lines of a byte stream; one longer than ``cap`` is skipped to its end and yielded as None."""
    buffer = b""
    skipping = False
    async for chunk in chunks:
        buffer += chunk
        while True:
            end = buffer.find(b"\n")
            if end < 0:
                break
            line, buffer = buffer[:end], buffer[end + 1 :]
            if skipping:
                skipping = False
                yield None
            elif line.strip():
                yield line if len(line) <= cap else None
        if len(buffer) > cap:
            buffer, skipping = b"", True
    if skipping:
        yield None
    elif buffer.strip():
        yield buffer if len(buffer) <= cap else None
