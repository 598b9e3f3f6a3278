"""This project's own tool-use look-alikes: ``toolsim/<domain>`` (retail, airline, telecom) and ``tools-synth/<spec>``.

These are NOT τ²-bench: authored databases, 25 tasks per domain and tool sets that differ
from τ²'s. They stay as an offline smoke test of the orchestration (no τ² install needed)
and as the base that synthesis builds on. τ²-bench's real tasks are ``tau2/<domain>``.
The former names ``tools/<domain>`` still resolve (not listed) so that older runs and
suites keep working.
"""

from __future__ import annotations

from harness.task import TaskEntry, TaskFamily
from tasks.tools.domains.registry import DOMAIN_NAMES
from tasks.tools.synth_task import SynthTask, shipped_specs
from tasks.tools.task import DomainTask

LOOKALIKE_PREFIX = "toolsim"
FORMER_PREFIX = "tools"


def resolve_unlisted(name: str) -> TaskEntry | None:
    """A former ``tools/<domain>`` name, or a synthesis task for a spec given by path."""
    prefix, _, rest = name.partition("/")
    if prefix == FORMER_PREFIX and rest in DOMAIN_NAMES:
        return TaskEntry(name, DomainTask.description, DomainTask)
    if name.startswith("tools-synth/") and name.endswith((".yaml", ".yml")):
        return TaskEntry(name, SynthTask.description, SynthTask)
    return None


FAMILY = TaskFamily(
    {
        **{
            f"{LOOKALIKE_PREFIX}/{d}": TaskEntry(f"{LOOKALIKE_PREFIX}/{d}", DomainTask.description, DomainTask)
            for d in DOMAIN_NAMES
        },
        **{
            f"tools-synth/{s}": TaskEntry(f"tools-synth/{s}", SynthTask.description, SynthTask) for s in shipped_specs()
        },
    },
    resolvers=(resolve_unlisted,),
)
