"""τ²-style tool use: ``tools/<domain>`` (retail, airline, telecom) and ``tools-synth/<spec>``."""

from __future__ import annotations

from harness.task import TaskEntry, TaskFamily
from tasks.tools.domains.registry import DOMAIN_NAMES
from tasks.tools.synth_task import SynthTask, shipped_specs
from tasks.tools.task import DomainTask


class ToolsFamily(TaskFamily):
    """The built-in domains by name, plus ``tools-synth/<spec name or path.yaml>`` for any spec."""

    def resolve(self, name: str) -> TaskEntry | None:
        """A listed entry, or a synthesis task for a spec given by path."""
        entry = self.entries.get(name)
        if entry is None and name.startswith("tools-synth/") and name.endswith((".yaml", ".yml")):
            return TaskEntry(name, SynthTask.description, SynthTask)
        return entry


FAMILY = ToolsFamily({
    **{f"tools/{d}": TaskEntry(f"tools/{d}", DomainTask.description, DomainTask) for d in DOMAIN_NAMES},
    **{f"tools-synth/{s}": TaskEntry(f"tools-synth/{s}", SynthTask.description, SynthTask) for s in shipped_specs()},
})
