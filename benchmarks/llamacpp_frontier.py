"""The throughput–quality frontier of llama.cpp's own server, and the harness's overhead per request.

Part 1 runs ``frontier sweep --engine`` (the real command line) with llama.cpp's OpenAI-compatible
server (``python -m llama_cpp.server``, extra ``local``; it also needs ``llama-cpp-python[server]``'s
``sse-starlette`` and ``starlette-context``) and the packaged SmolLM2-135M-Instruct GGUF, over a grid
of threads, batch size and context, on eight generated ConFiQA questions (``confiqa-gen/qa -T n=8``,
greedy, 32 tokens), one request at a time. Each configuration's output tok/s is the run's aggregate
(``frontier-throughput/1``) and its score the task's accuracy.

Part 2 sends the same request (8 tokens, greedy) alternately through a bare aiohttp client and through
the harness's ``openai-compatible/`` adapter (request building, retries, parsing, timing), ``--requests``
times each, to llama.cpp's server (one thread) and to the loopback timed server (no model time, so the
difference is the client's alone); the overhead is the difference of the medians of their wall times.

Run: ``python benchmarks/llamacpp_frontier.py [--grid threads=1,2 --grid batch=8,512 --grid ctx=2048]``.
Ends with one line of JSON: ``{"configs", "tok_s", "score", "overhead_ms_per_request", ...}`` (the
loopback figure; the llama.cpp one beside it).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

TEMPLATE = (
    "{python} -m llama_cpp.server --model {gguf} --port {{port}} --n_threads {{threads}} --n_batch {{batch}}"
    " --n_ctx {{ctx}} --verbose false"
)
DEFAULT_GRID = ("threads=1,2", "batch=8,512", "ctx=2048")
TASK = ("--task", "confiqa-gen/qa", "-T", "n=8", "-T", "seed=0", "--max-tokens", "32", "--temperature", "0")


def sweep(gguf: Path, grid: list[str], out: Path) -> dict:
    """Run ``frontier sweep --engine`` over ``grid`` into ``out`` and return its sweep.json."""
    engine = TEMPLATE.format(python=sys.executable, gguf=gguf)
    command = [sys.executable, "-m", "harness", "sweep", *TASK, "--model", "openai-compatible/smollm2-135m"]
    command += ["--engine", engine, *(arg for key in grid for arg in ("--grid", key)), "--concurrency", "1"]
    command += ["--no-cache", "--no-progress", "--out", str(out)]
    subprocess.run(command, check=True)
    return json.loads((out / "sweep.json").read_text())


async def overhead(url: str, requests: int) -> dict[str, float]:
    """Median wall time per request at ``url``: bare aiohttp vs the harness's adapter, interleaved."""
    import aiohttp

    from harness.adapters import resolve_adapter
    from harness.adapters.base import close_adapter
    from harness.types import GenerateRequest, Message

    question = "In one word: what colour is the sky on a clear day?"
    body = {"model": "smollm2-135m", "messages": [{"role": "user", "content": question}], "max_tokens": 8}
    body["temperature"] = 0
    request = GenerateRequest(messages=(Message(role="user", content=question),), max_tokens=8, temperature=0)
    adapter = resolve_adapter(f"openai-compatible/smollm2-135m@{url}")
    times: dict[bool, list[float]] = {True: [], False: []}
    async with aiohttp.ClientSession() as session:
        for index in range(requests + 2):  # the first two of each are warm-up
            for bare in (index % 2 == 0, index % 2 == 1):  # alternate which goes first
                started = time.perf_counter()
                if bare:
                    async with session.post(f"{url}/chat/completions", json=body) as response:
                        assert (await response.json())["choices"][0]["message"] is not None
                else:
                    await adapter.generate(request)
                if index >= 2:
                    times[bare].append(time.perf_counter() - started)
    await close_adapter(adapter)
    bare_ms, harness_ms = (1000 * statistics.median(times[side]) for side in (True, False))
    return {"bare_ms": bare_ms, "harness_ms": harness_ms, "overhead_ms": harness_ms - bare_ms}


def overheads(gguf: Path, requests: int, logs: Path) -> dict[str, Any]:
    """The overhead on llama.cpp's server (one thread) and on the loopback timed server (no model time)."""
    from harness.engine import Engine, engine_command, free_port

    found: dict[str, Any] = {"requests_each": requests}
    servers = {
        "llamacpp": TEMPLATE.format(python=sys.executable, gguf=gguf),
        "loopback": f"{sys.executable} -m harness.testing.timed_server --port {{port}} --tokens 8",
    }
    for name, template in servers.items():
        port = free_port()
        command = engine_command(template, port, {"threads": "1", "batch": "512", "ctx": "2048"})
        with Engine(command, port, logs / f"overhead-{name}.log", name, 300.0):
            found[name] = asyncio.run(overhead(f"http://127.0.0.1:{port}/v1", requests))
    return found


def main() -> None:
    """Run both parts and print the frontier and the overhead."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--grid", action="append", help="a --grid of the sweep (repeatable; default: %(default)s)")
    parser.add_argument("--requests", type=int, default=100, help="requests each for the overhead")
    parser.add_argument("--out", type=Path, help="sweep directory (default: a temporary one)")
    args = parser.parse_args()
    from harness.adapters.local import resolve_model_path

    gguf = resolve_model_path("smollm2-135m")
    with tempfile.TemporaryDirectory() as scratch:
        out = args.out or Path(scratch) / "sweep"
        index = sweep(gguf, args.grid or list(DEFAULT_GRID), out)
        figures = overheads(gguf, args.requests, out / "engine-logs")
    points = [point for point in index["points"] if "error" not in point]
    rows = [point["tasks"]["confiqa-gen/qa"] for point in points]
    axis = index["frontiers"].get("confiqa-gen/qa", {}).get("output_tok_s", [])  # none for a single point
    frontier = {row["label"]: row for row in axis}
    for point, row in zip(points, rows, strict=True):
        block = row["throughput"] or {}
        ci = block.get("output_tok_s_ci") or [float("nan")] * 2
        beaten = frontier.get(point["label"], {}).get("dominated_by") or []
        print(
            f"{point['label']}: score {row['accuracy']:.3f} [{row['ci'][0]:.3f}, {row['ci'][1]:.3f}], "
            f"{block.get('output_tok_s', float('nan')):.2f} output tok/s [{ci[0]:.2f}, {ci[1]:.2f}], "
            f"median latency {block.get('latency_s_median', float('nan')):.2f} s"
            + (f"; dominated by {', '.join(beaten)}" if beaten else "; on the frontier")
        )
    for name in ("llamacpp", "loopback"):
        each = figures[name]
        print(
            f"per request on {name}: bare aiohttp {each['bare_ms']:.2f} ms, harness {each['harness_ms']:.2f} ms "
            f"(medians of {figures['requests_each']} each): overhead {each['overhead_ms']:+.2f} ms"
        )
    load = os.getloadavg()[0]
    print(
        json.dumps(
            {
                "configs": [point["config"] for point in points],
                "tok_s": [row["throughput"]["output_tok_s"] if row["throughput"] else None for row in rows],
                "score": [row["accuracy"] for row in rows],
                "dominated": [bool(frontier.get(p["label"], {}).get("dominated_by")) for p in points],
                "overhead_ms_per_request": figures["loopback"]["overhead_ms"],
                "overhead_ms_per_request_llamacpp": figures["llamacpp"]["overhead_ms"],
                "overhead": figures,
                "failed_configs": [point["label"] for point in index["points"] if "error" in point],
                "load_average_1min": round(load, 2),
            }
        )
    )


if __name__ == "__main__":
    main()
