"""The loopback OpenAI-compatible server, counting how many chat requests it answers at once."""

from __future__ import annotations

import threading
from typing import Any

from harness.testing.openai_server import OpenAIServer


class CountingServer(OpenAIServer):
    """An :class:`OpenAIServer` that records the peak number of chat requests in flight."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.in_flight = 0
        self.peak_in_flight = 0
        self._flight_lock = threading.Lock()

    def __enter__(self) -> CountingServer:
        self.start()
        return self

    async def _handle_chat(self, request: Any) -> Any:
        with self._flight_lock:
            self.in_flight += 1
            self.peak_in_flight = max(self.peak_in_flight, self.in_flight)
        try:
            return await super()._handle_chat(request)
        finally:
            with self._flight_lock:
                self.in_flight -= 1
