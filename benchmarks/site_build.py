"""Benchmark: build the leaderboard site from 200 generated submissions over 30 tasks.

Submissions are generated with a seeded RNG (20 models x 10 methods, five families of six
tasks, 50 per-sample scores per task), written to a temporary folder, then validated and
built exactly as ``frontier leaderboard build`` does. Ends with one JSON line
``{"submissions", "seconds", ..., "cpu_seconds"}``; the target (issue 43) is under 2 s of CPU.
"""

from __future__ import annotations

import json
import os
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

FAMILIES = ("longcot", "coins", "confiqa", "tools", "cyber")
TASKS = [f"{family}/t{i}" for family in FAMILIES for i in range(6)]
METHODS = (
    ["none"]
    + [f"clear:budget={b}" for b in (500, 1000, 2000, 4000)]
    + [f"uniform:budget={b}" for b in (500, 1000, 2000)]
    + ["best_of_n:n=4", "best_of_n:n=8"]
)
SAMPLES_PER_TASK = 50


def wilson(k: int, n: int) -> tuple[float, float]:
    """Wilson 95% interval (kept here so the generator needs nothing from the harness)."""
    z = 1.959963984540054
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * (p * (1 - p) / n + z * z / (4 * n * n)) ** 0.5 / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def generate(out: Path, models: int = 20, seed: int = 0) -> int:
    """Write ``models * len(METHODS)`` submission files into ``out``; returns how many."""
    from leaderboard.submission import method_label, parse_method_spec

    rng = random.Random(seed)
    count = 0
    for m in range(models):
        skill = rng.uniform(0.2, 0.8)
        for spec in METHODS:
            chain = [] if spec == "none" else [parse_method_spec(spec)]
            budget = chain[0]["params"].get("budget", chain[0]["params"].get("n", 1) * 500) if chain else 300
            tasks = {}
            for task in TASKS:
                p = min(0.98, skill * (1 + 0.1 * (budget / 1000) ** 0.5) * rng.uniform(0.8, 1.1))
                values = [1.0 if rng.random() < p else 0.0 for _ in range(SAMPLES_PER_TASK)]
                k = int(sum(values))
                low, high = wilson(k, SAMPLES_PER_TASK)
                out_tokens = int(budget * SAMPLES_PER_TASK * rng.uniform(0.8, 1.2))
                tasks[task] = {
                    "family": task.split("/")[0],
                    "version": "1",
                    "args": {},
                    "primary_metric": "accuracy",
                    "higher_is_better": True,
                    "metrics": {
                        "accuracy": {
                            "value": k / SAMPLES_PER_TASK,
                            "n": SAMPLES_PER_TASK,
                            "ci_low": low,
                            "ci_high": high,
                            "method": "wilson",
                        }
                    },
                    "counts": {"scored": SAMPLES_PER_TASK, "unscored": 0, "error": 0},
                    "usage": {
                        "input_tokens": 200 * SAMPLES_PER_TASK,
                        "output_tokens": out_tokens,
                        "reasoning_tokens": out_tokens // 2,
                        "cached_tokens": 0,
                    },
                    "cost_usd": out_tokens * 2e-6,
                    "cost_known": True,
                    "retries": 0,
                    "data_hash": "sha256:" + f"{TASKS.index(task):064x}",
                    "samples": [{"id": f"{task}-{i}", "value": v, "outcome": "scored"} for i, v in enumerate(values)],
                }
            submission = {
                "schema_version": "frontier-submission/1",
                "model": f"lab{m % 5}/model-{m}",
                "adapter": f"lab{m % 5}",
                "method": {"label": method_label(chain), "chain": chain},
                "suite": {"name": "bench", "version": "1"},
                "harness_version": "0.1.0",
                "date": "2025-01-01T00:00:00Z",
                "seed": 0,
                "runs": [{"run_id": f"run-{m}-{count}", "config_hash": "x", "complete": True}],
                "tasks": tasks,
            }
            (out / f"sub-{count:03d}.json").write_text(json.dumps(submission), encoding="utf-8")
            count += 1
    return count


def _cpu_seconds() -> float:
    """CPU time of this process and its finished children (the validation workers)."""
    import resource

    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def main() -> None:
    """Generate, then time validation plus the site build."""
    from leaderboard.site import build_site
    from leaderboard.site_plots import default_workers
    from leaderboard.validate import validate_files

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / "subs").mkdir()
        count = generate(root / "subs")
        workers = default_workers()
        cpu_start = _cpu_seconds()
        start = time.perf_counter()
        valid, issues = validate_files(sorted((root / "subs").glob("*.json")), workers=workers)
        validated = time.perf_counter()
        if issues:
            raise SystemExit(f"generated submissions are invalid: {issues[:3]}")
        summary = build_site([data for _, data in valid], root / "site")
        seconds = time.perf_counter() - start
        cpu = _cpu_seconds() - cpu_start
        size = sum(p.stat().st_size for p in (root / "site").rglob("*") if p.is_file())
    print(f"submissions: {count} over {len(TASKS)} tasks ({SAMPLES_PER_TASK} per-sample scores each)")
    print(
        f"validate: {validated - start:.2f} s   build: {seconds - (validated - start):.2f} s   total: {seconds:.2f} s"
    )
    print(f"CPU time in all processes: {cpu:.2f} s (the floor on {workers} CPUs is {cpu / workers:.2f} s)")
    print(f"validation workers: {workers} (load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs)")
    print(f"pages: {summary.tasks} task, {summary.models} model; plot files: {summary.plots}; site {size / 1e6:.1f} MB")
    print(
        json.dumps(
            {
                "submissions": count,
                "seconds": round(seconds, 3),
                "tasks": len(TASKS),
                "validate_seconds": round(validated - start, 3),
                "cpu_seconds": round(cpu, 3),
            }
        )
    )


if __name__ == "__main__":
    main()
