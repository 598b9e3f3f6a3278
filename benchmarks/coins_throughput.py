"""Obligations per second: the persistent coqtop pool against one coqc file per check, on the same specs.

Both backends check the same curated specs (by default the eight required ones; ``--specs all``
for every curated spec, ``--first N`` for the first N of them) with the same number of workers;
prints each side's obligations per second and the provers' CPU time per obligation (which the
machine's load does not inflate), whether both judged every spec alike, the pool/coqc ratio of
both, then one line of JSON.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable
from dataclasses import dataclass

from coins_rocq import CoqcBackend, CoqtopPool, check_specs
from coins_rocq.curated import curated_specs
from coins_rocq.humaneval import humaneval_cases
from coins_rocq.obligations import Case
from coins_rocq.rtypes import Signature
from harness.testing.cpu_time import children_cpu_s

REQUIRED = frozenset(f"HumanEval/{n}" for n in (13, 23, 30, 34, 35, 42, 48, 53))

Item = tuple[str, Signature, list[Case]]


@dataclass(frozen=True)
class Side:
    """One backend's figures over the items: obligations, wall seconds, prover CPU seconds, verdicts."""

    obligations: int
    seconds: float
    cpu_s: float
    verdicts: tuple[str, ...]

    @property
    def rate(self) -> float:
        """Obligations per wall-clock second."""
        return self.obligations / self.seconds

    @property
    def cpu_ms(self) -> float:
        """Prover CPU milliseconds per obligation."""
        return 1000 * self.cpu_s / self.obligations


def measure(open_backend: Callable[[], CoqtopPool | CoqcBackend], items: list[Item]) -> Side:
    """Open a backend, check ``items`` with it (startup included) and close it; its figures."""
    cpu_before = children_cpu_s()
    start = time.perf_counter()
    with open_backend() as backend:
        reports = check_specs(items, backend)
    seconds = time.perf_counter() - start
    return Side(
        obligations=sum(len(r.results) for r in reports),
        seconds=seconds,
        cpu_s=children_cpu_s() - cpu_before,
        verdicts=tuple(r.verdict for r in reports),
    )


def main() -> None:
    """Run both backends on the same specs and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--specs", choices=["required", "all"], default="required")
    parser.add_argument("--first", type=int, default=None, help="only the first N of those specs")
    parser.add_argument("--workers", type=int, default=None)
    args = parser.parse_args()
    specs = [s for s in curated_specs() if args.specs == "all" or s.task_id in REQUIRED][: args.first]
    items: list[Item] = [(s.source, s.signature, humaneval_cases(s.task_id)) for s in specs]
    pool = measure(lambda: CoqtopPool(args.workers), items)
    coqc = measure(lambda: CoqcBackend(args.workers), items)
    for name, side in (("pool", pool), ("coqc", coqc)):
        print(
            f"{name}: {side.obligations} obligations over {len(items)} specs in {side.seconds:.1f} s "
            f"= {side.rate:.1f} obligations/s ({side.verdicts.count('correct')} correct, startup included); "
            f"prover CPU {side.cpu_ms:.2f} ms per obligation"
        )
    same = pool.verdicts == coqc.verdicts
    print(f"same verdicts on every spec: {'yes' if same else 'no'}")
    print(
        f"ratio pool/coqc: {pool.rate / coqc.rate:.1f}x obligations/s, {coqc.cpu_ms / pool.cpu_ms:.1f}x less CPU each"
    )
    print(
        json.dumps(
            {
                "specs": len(items),
                "pool_obligations": pool.obligations,
                "coqc_obligations": coqc.obligations,
                "same_verdicts": same,
                "pool_obligations_per_s": round(pool.rate, 2),
                "coqc_obligations_per_s": round(coqc.rate, 2),
                "ratio_vs_coqc": round(pool.rate / coqc.rate, 2),
                "pool_prover_cpu_ms_per_obligation": round(pool.cpu_ms, 2),
                "coqc_prover_cpu_ms_per_obligation": round(coqc.cpu_ms, 2),
                "cpu_ratio_coqc_over_pool": round(coqc.cpu_ms / pool.cpu_ms, 2),
            }
        )
    )


if __name__ == "__main__":
    main()
