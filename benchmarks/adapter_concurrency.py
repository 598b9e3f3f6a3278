"""Requests in flight per adapter: ``best_of_n:n=8`` on ``demo/arith`` at ``--concurrency 2``.

A loopback OpenAI-compatible server with 50 ms latency counts the chat requests it is
answering at once; the run goes through ``harness.runner.execute`` exactly as
``frontier run`` does. The bound the design promises is ``--concurrency`` requests per
adapter, so the ideal peak is 2 (before the calling layer bounded requests it was
samples in flight x n = 16). Ends with one line of JSON:
``{"peak_requests_in_flight", "concurrency", "n", "requests", "seconds"}``.

Run: ``python benchmarks/adapter_concurrency.py [--concurrency 2] [--n 8] [--samples 6]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import tempfile
import time
from pathlib import Path

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")


def main() -> None:
    """Run the measurement and print the figures."""
    from harness.plan import RunPlan, TaskPlan
    from harness.runner import RunOptions, execute
    from harness.testing.counting_server import CountingServer

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--n", type=int, default=8)
    parser.add_argument("--samples", type=int, default=6)
    args = parser.parse_args()
    with CountingServer(latency=0.05) as server, tempfile.TemporaryDirectory() as tmp:
        plan = RunPlan(
            model=f"openai-compatible/counted@{server.base_url}",
            tasks=(TaskPlan("demo/arith", limit=args.samples),),
            methods=(f"best_of_n:n={args.n}",),
        )
        started = time.perf_counter()
        asyncio.run(execute(plan, Path(tmp) / "run", RunOptions(concurrency=args.concurrency, progress=False)))
        seconds = time.perf_counter() - started
        figures = {
            "peak_requests_in_flight": server.peak_in_flight,
            "concurrency": args.concurrency,
            "n": args.n,
            "requests": len(server.requests),
            "seconds": round(seconds, 2),
        }
    print(f"peak requests in flight {figures['peak_requests_in_flight']} at --concurrency {args.concurrency}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
