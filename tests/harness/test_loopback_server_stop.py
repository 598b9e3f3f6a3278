"""A loopback server stopped while a handler hangs for a client that went away leaves no task behind.

Such a task, left pending in a closed loop, was garbage-collected in whatever test ran later, which
then saw asyncio's "Task was destroyed but it is pending!" on its stderr (a compare test's JSON
once, the end of a pytest session another time).
"""

from __future__ import annotations

import gc
import json
import logging
import socket
from collections.abc import Mapping

import pytest

from harness.testing.batch_server import BatchBehaviour, BatchServer


def _post_and_go_away(host: str, port: int, path: str, body: Mapping[str, object]) -> None:
    """Send one POST and close the connection without waiting for the answer (as a killed client does)."""
    data = json.dumps(body).encode()
    head = (
        f"POST {path} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n"
    )
    with socket.create_connection((host, port), timeout=10) as connection:
        connection.sendall(head.encode() + data)
        connection.settimeout(0.5)
        with pytest.raises(TimeoutError):
            connection.recv(1)  # the handler hangs


def test_a_handler_hanging_for_a_client_that_left_is_cancelled_when_the_server_stops(
    caplog: pytest.LogCaptureFixture,
) -> None:
    server = BatchServer(behaviour=BatchBehaviour(hang_after_create=True))
    server.start()
    server.files["file-0"] = b'{"custom_id": "a", "method": "POST", "url": "/v1/chat/completions"}\n'
    body = {"input_file_id": "file-0", "endpoint": "/v1/chat/completions", "completion_window": "24h"}
    _post_and_go_away(server.host, server.port, "/v1/batches", body)
    assert list(server.batches) == ["batch_1"]  # the batch was made; its answer never comes
    with caplog.at_level(logging.ERROR, logger="asyncio"):
        server.stop()
        assert server._thread is not None and not server._thread.is_alive()
        gc.collect()
    assert not [r for r in caplog.records if "destroyed but it is pending" in r.getMessage()]
