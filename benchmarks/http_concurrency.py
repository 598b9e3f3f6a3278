"""HTTP concurrency: 2,000 requests at concurrency 64 to a loopback server with 50 ms latency.

The server runs in its own process (``python -m harness.testing.openai_server``).
Requests go through the ``openai-compatible/`` adapter (lean aiohttp client) and
then through the litellm adapter, each behind the runner's calling layer. The
ideal is 64 / 0.05 s = 1,280 requests/s. Ends with one line of JSON:
``{"requests_per_s", "fraction_of_ideal", "litellm_requests_per_s"}``.

Run: ``python benchmarks/http_concurrency.py [--requests 2000] [--concurrency 64] [--latency 0.05]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")


def free_port() -> int:
    """An unused loopback port."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wait_until_up(base_url: str, timeout: float = 20) -> None:
    """Poll ``/models`` until the server answers."""
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            urllib.request.urlopen(f"{base_url}/models", timeout=1).read()
            return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"server at {base_url} did not start")


async def drive(spec: str, requests: int, concurrency: int) -> float:
    """Requests per second for ``requests`` distinct chat requests through the adapter ``spec``."""
    from harness.adapters import resolve_adapter
    from harness.calls import CallingAdapter
    from harness.types import GenerateRequest, Message

    adapter = CallingAdapter(resolve_adapter(spec))
    queue = iter(range(requests))

    async def worker() -> None:
        for index in queue:
            request = GenerateRequest(messages=(Message(role="user", content=f"request {index}"),), max_tokens=16)
            await adapter.generate(request)

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    elapsed = time.perf_counter() - started
    await adapter.aclose()
    return requests / elapsed


def main() -> None:
    """Start the server, drive both adapters, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--requests", type=int, default=2000)
    parser.add_argument("--concurrency", type=int, default=64)
    parser.add_argument("--latency", type=float, default=0.05)
    args = parser.parse_args()
    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "harness.testing.openai_server", "--port", str(port), "--latency", str(args.latency)],
        stdout=subprocess.DEVNULL,
    )
    base_url = f"http://127.0.0.1:{port}/v1"
    try:
        wait_until_up(base_url)
        ideal = args.concurrency / args.latency
        lean = asyncio.run(drive(f"openai-compatible/test-model@{base_url}", args.requests, args.concurrency))
        via_litellm = asyncio.run(drive(f"openai/test-model@{base_url}", args.requests, args.concurrency))
    finally:
        server.terminate()
        server.wait()
    print(f"ideal: {ideal:,.0f} requests/s ({args.concurrency} in flight, {args.latency * 1000:.0f} ms each)")
    print(f"openai-compatible/: {lean:,.0f} requests/s = {lean / ideal:.0%} of ideal (target: at least 60%)")
    print(f"litellm:            {via_litellm:,.0f} requests/s = {via_litellm / ideal:.0%} of ideal")
    print(
        json.dumps(
            {
                "requests_per_s": round(lean, 1),
                "fraction_of_ideal": round(lean / ideal, 3),
                "litellm_requests_per_s": round(via_litellm, 1),
            }
        )
    )


if __name__ == "__main__":
    main()
