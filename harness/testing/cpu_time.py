"""CPU time of child processes, for the benchmarks that time commands or prover workers.

CPU time counts what a process did, not how long it waited for a busy machine, so these
figures hold up better than wall time on a shared host.
"""

from __future__ import annotations

import resource
import statistics
import subprocess
from collections.abc import Mapping, Sequence


def children_cpu_s() -> float:
    """CPU seconds (user + system) used so far by this process's ended children."""
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def median_cpu_s(command: Sequence[str], runs: int, env: Mapping[str, str] | None = None) -> float:
    """Median CPU seconds of ``command`` (with its own children) over ``runs`` runs; it must succeed."""
    times = []
    for _ in range(runs):
        before = children_cpu_s()
        subprocess.run(list(command), check=True, capture_output=True, env=None if env is None else dict(env))
        times.append(children_cpu_s() - before)
    return statistics.median(times)
