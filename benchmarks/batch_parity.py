"""``--batch`` against direct calls: 1,000 ``demo/arith`` samples, a ``kill -9`` while the batch waits.

A loopback server (``harness.testing.batch_server``) answers chat completions and OpenAI's Batch
API with the same fake model. The direct run calls ``openai/gpt-4o-mini@<loopback>`` through
litellm; the batched run is ``frontier run --batch`` on the same model, killed with SIGKILL while
its batch is in progress, then ``frontier run --resume``. Both costs come from litellm's price map
(list prices direct, batch prices batched), as ``frontier show`` prints them. Ends with one line of
JSON: ``{"samples", "scores_identical", "cost_direct_usd", "cost_batch_usd", "cost_ratio",
"batches", "batched_requests", "killed_while_waiting", "seconds_direct", "seconds_batched"}``.

Run: ``python benchmarks/batch_parity.py [--samples 1000]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from harness.testing.batch_server import BatchServer

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
FAST = {"FRONTIER_BATCH_GATHER_S": "0.5", "FRONTIER_BATCH_POLL_S": "0.2", "FRONTIER_BATCH_MAX_POLL_S": "1"}


def _scores(run_dir: Path) -> dict[str, tuple[str, float | None]]:
    from harness.runformat import RunFiles

    return {r.sample_id: (r.score.outcome, r.score.value) for r in RunFiles(run_dir).results()}


def _cost(run_dir: Path) -> float:
    from harness.runformat import RunFiles

    cost = RunFiles(run_dir).read_summary().tasks["demo/arith"].cost_usd
    assert cost is not None, f"{run_dir}: cost unknown"
    return cost


def _batched(model: str, out: Path, samples: int, server: BatchServer) -> bool:
    """The batched run, killed while its batch waits and resumed; True when the kill landed while waiting."""
    from harness.batch.state import read_batches

    env = {**os.environ, **FAST, "FRONTIER_CACHE_DIR": ""}
    base = [sys.executable, "-m", "harness", "run", "--no-progress", "--out", str(out)]
    args = ["--task", "demo/arith", "-T", f"n={samples}", "--model", model, "--no-cache", "--batch"]
    server.behaviour.paused = True
    process = subprocess.Popen([*base, *args], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + 300
    while not read_batches(out) and time.time() < deadline and process.poll() is None:
        time.sleep(0.1)
    waiting = process.poll() is None and bool(read_batches(out))
    os.kill(process.pid, signal.SIGKILL)
    process.wait()
    server.behaviour.paused = False
    subprocess.run([*base, "--resume"], env=env, check=True, capture_output=True, timeout=600)
    return waiting


def main() -> None:
    """Run both, compare, print the figures."""
    from harness.cli.run import build_plan
    from harness.run_options import RunOptions
    from harness.runner import execute
    from harness.testing.batch_server import BatchServer
    from harness.testing.responders import arith_responder

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--samples", type=int, default=1000)
    args = parser.parse_args()
    server = BatchServer(arith_responder())
    server.start()
    try:
        model = f"openai/gpt-4o-mini@{server.base_url}"
        with tempfile.TemporaryDirectory() as tmp:
            direct, batched = Path(tmp) / "direct", Path(tmp) / "batched"
            started = time.perf_counter()
            plan = build_plan(None, ("demo/arith",), model, (), {"n": str(args.samples)}, None, 0, {})
            asyncio.run(execute(plan, direct, RunOptions(concurrency=32, progress=False)))
            seconds_direct = time.perf_counter() - started
            started = time.perf_counter()
            waiting = _batched(model, batched, args.samples, server)
            seconds_batched = time.perf_counter() - started
            cost_direct, cost_batch = _cost(direct), _cost(batched)
            figures = {
                "samples": args.samples,
                "scores_identical": _scores(direct) == _scores(batched) and len(_scores(direct)) == args.samples,
                "cost_direct_usd": round(cost_direct, 6),
                "cost_batch_usd": round(cost_batch, 6),
                "cost_ratio": round(cost_batch / cost_direct, 6),
                "batches": len(server.batches),
                "batched_requests": sum(len(lines) for lines in server.batches.values()),
                "killed_while_waiting": waiting,
                "seconds_direct": round(seconds_direct, 1),
                "seconds_batched": round(seconds_batched, 1),
            }
    finally:
        server.stop()
    print(f"{args.samples} samples: scores identical {figures['scores_identical']}, cost ratio {figures['cost_ratio']}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()
