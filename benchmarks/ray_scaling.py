"""CPU-heavy scoring on the local process pool and on Ray, with 1 and 2 workers, on this machine.

The workload is real: the task's scorer (default ``longcot/logic-easy``) judging its own
reference answers, restricted to the templates with the costliest verifiers (BlocksWorld
replays a plan, RandomHanoi replays the moves; see benchmarks/longcot_verify.py), repeated
``--repeat`` times. Each backend scores the whole batch at once (everything in flight); processes are
started and warmed before timing. Ray runs a fresh local cluster of N CPUs for each N.

Ends with one JSON line: {"local_per_s", "ray_per_s", "ray_vs_local"} at 2 workers.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from harness.executors.local_pool import LocalPoolScoring
from harness.executors.scoring import TaskRef
from harness.registry import resolve_task
from harness.types import GenerateRequest, Output, Sample, Score

Case = tuple[Sample, Output]


def build_workload(task_name: str, templates: set[str], repeat: int) -> tuple[Any, list[Case], float]:
    """The task, the (sample, reference output) cases to score, and the serial in-process ms per score."""
    task = resolve_task(task_name).create()
    kept: list[Case] = []
    for sample in task.samples():
        if templates and str(sample.metadata.get("template")) not in templates:
            continue
        request = GenerateRequest(messages=tuple(sample.messages()))
        kept.append((sample, Output(text=str(task.reference_output(sample, request)))))
    if not kept:
        raise SystemExit(f"{task_name} has no samples of the templates {sorted(templates)}")
    if TaskRef.of(task) is None:
        raise SystemExit(f"{task_name} cannot be rebuilt from the registry, so it would be scored in threads")
    counts = Counter(str(s.metadata.get("template", "?")) for s, _ in kept)
    print(
        f"workload: {task_name}, {len(kept)} samples ({', '.join(f'{k} {v}' for k, v in sorted(counts.items()))})"
        f", repeated {repeat} times"
    )
    started = time.perf_counter()
    for sample, output in kept * 2:
        task.score(sample, output)
    serial_ms = (time.perf_counter() - started) * 1000 / (2 * len(kept))
    return task, kept * repeat, serial_ms


async def _score_all(backend: Any, task: Any, cases: list[Case]) -> list[Score]:
    return list(await asyncio.gather(*(backend.score(task, sample, output) for sample, output in cases)))


def timed(backend: Any, task: Any, cases: list[Case], warmup: list[Case]) -> float:
    """Seconds to score ``cases`` after a warm-up batch; every score must be correct."""
    asyncio.run(_score_all(backend, task, warmup))
    started = time.perf_counter()
    scores = asyncio.run(_score_all(backend, task, cases))
    elapsed = time.perf_counter() - started
    wrong = [s for s in scores if s.value != 1.0]
    if wrong:
        raise SystemExit(f"{backend.name}: {len(wrong)} reference answers did not score 1: {wrong[0]}")
    return elapsed


def run_local(workers: int, task: Any, cases: list[Case], warmup: list[Case]) -> float:
    """Seconds on a local pool of ``workers`` processes."""
    backend = LocalPoolScoring(workers)
    try:
        return timed(backend, task, cases, warmup)
    finally:
        backend.close()


def run_ray(cpus: int, task: Any, cases: list[Case], warmup: list[Case]) -> float:
    """Seconds on a fresh local Ray of ``cpus`` CPUs (one scoring task per CPU at a time)."""
    from harness.executors.ray_scoring import RayScoring
    from harness.executors.ray_session import ray_session

    with ray_session(None, num_cpus=cpus):
        return timed(RayScoring(), task, cases, warmup)


def main() -> None:
    """Measure and print throughput per backend and worker count."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--task", default="longcot/logic-easy")
    parser.add_argument(
        "--templates",
        default="BlocksWorld,RandomHanoi",
        help="comma-separated templates to keep ('' keeps every sample)",
    )
    parser.add_argument("--repeat", type=int, default=40)
    args = parser.parse_args()
    templates = {t.strip() for t in args.templates.split(",") if t.strip()}
    task, cases, serial_ms = build_workload(args.task, templates, args.repeat)
    warmup = cases[: min(len(cases), 8)]
    print(f"{len(cases)} scores; serial in-process cost {serial_ms:.2f} ms per score; {os.cpu_count()} CPUs here")
    results: dict[tuple[str, int], float] = {}
    for workers in (1, 2):
        results[("local", workers)] = run_local(workers, task, cases, warmup)
        results[("ray", workers)] = run_ray(workers, task, cases, warmup)
    print(f"{'backend':8s} {'workers':>7s} {'seconds':>8s} {'scores/s':>9s} {'ms/score':>9s}")
    for (name, workers), seconds in sorted(results.items()):
        print(f"{name:8s} {workers:7d} {seconds:8.2f} {len(cases) / seconds:9.1f} {1000 * seconds / len(cases):9.2f}")
    for name in ("local", "ray"):
        one, two = results[(name, 1)], results[(name, 2)]
        print(
            f"{name}: time per score from 1 to 2 workers: {1000 * one / len(cases):.2f} -> "
            f"{1000 * two / len(cases):.2f} ms (speed-up x{one / two:.2f})"
        )
    local_per_s, ray_per_s = len(cases) / results[("local", 2)], len(cases) / results[("ray", 2)]
    print(f"Ray throughput is {ray_per_s / local_per_s:.2f}x the local pool's at 2 workers")
    print(
        json.dumps(
            {
                "local_per_s": round(local_per_s, 1),
                "ray_per_s": round(ray_per_s, 1),
                "ray_vs_local": round(ray_per_s / local_per_s, 3),
            }
        )
    )


if __name__ == "__main__":
    main()
