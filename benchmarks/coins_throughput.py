"""Obligations per second: the persistent coqtop pool against one coqc file per check.

Checks every curated spec with the pool, and the same specs (by default the eight
required ones, ``--coqc-specs all`` for every one) with the coqc backend; prints both
rates and their ratio, and the workers' CPU time per obligation (which the machine's load
does not inflate), then one line of JSON.
"""

from __future__ import annotations

import argparse
import json
import resource
import time

from coins_rocq import CoqcBackend, CoqtopPool, check_specs
from coins_rocq.checker import Backend
from coins_rocq.curated import curated_specs
from coins_rocq.humaneval import humaneval_cases
from coins_rocq.obligations import Case
from coins_rocq.rtypes import Signature

REQUIRED = (
    "HumanEval/13",
    "HumanEval/23",
    "HumanEval/30",
    "HumanEval/34",
    "HumanEval/35",
    "HumanEval/42",
    "HumanEval/48",
    "HumanEval/53",
)


Item = tuple[str, Signature, list[Case]]


def run(backend: Backend, items: list[Item]) -> tuple[int, float, int]:
    """Check ``items``; returns (obligations, seconds, specs judged correct)."""
    start = time.perf_counter()
    reports = check_specs(items, backend)
    seconds = time.perf_counter() - start
    return sum(len(r.results) for r in reports), seconds, sum(r.verdict == "correct" for r in reports)


def prover_cpu_s() -> float:
    """CPU seconds used so far by this process's ended children (the pool's workers once it is closed)."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def main() -> None:
    """Run both backends and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--coqc-specs", choices=["required", "all"], default="required")
    parser.add_argument("--workers", type=int, default=None)
    parser.add_argument("--specs", type=int, default=None, help="only the first N curated specs (a quicker subset)")
    args = parser.parse_args()
    specs = curated_specs()[: args.specs]
    items: list[Item] = [(s.source, s.signature, humaneval_cases(s.task_id)) for s in specs]
    before = prover_cpu_s()
    with CoqtopPool(args.workers) as pool:
        pool_n, pool_s, pool_ok = run(pool, items)
        workers = pool.size
    pool_cpu_ms = 1000 * (prover_cpu_s() - before) / pool_n
    print(
        f"pool: {pool_n} obligations over {len(items)} specs in {pool_s:.1f} s "
        f"= {pool_n / pool_s:.1f} obligations/s ({pool_ok} correct, {workers} workers, startup included); "
        f"coqtop CPU {pool_cpu_ms:.2f} ms per obligation, {workers * 1000 / pool_cpu_ms:.0f} obligations/s "
        f"if the {workers} workers had their cores to themselves"
    )
    chosen = (
        items if args.coqc_specs == "all" else [i for s, i in zip(specs, items, strict=True) if s.task_id in REQUIRED]
    )
    with CoqcBackend(args.workers) as coqc:
        coqc_n, coqc_s, coqc_ok = run(coqc, chosen)
    print(
        f"coqc: {coqc_n} obligations over {len(chosen)} specs in {coqc_s:.1f} s "
        f"= {coqc_n / coqc_s:.1f} obligations/s ({coqc_ok} correct)"
    )
    pool_rate, coqc_rate = pool_n / pool_s, coqc_n / coqc_s
    print(f"ratio pool/coqc: {pool_rate / coqc_rate:.1f}x")
    print(
        json.dumps(
            {
                "obligations": pool_n,
                "pool_obligations_per_s": round(pool_rate, 2),
                "coqc_obligations_per_s": round(coqc_rate, 2),
                "ratio_vs_coqc": round(pool_rate / coqc_rate, 2),
                "pool_prover_cpu_ms_per_obligation": round(pool_cpu_ms, 2),
            }
        )
    )


if __name__ == "__main__":
    main()
