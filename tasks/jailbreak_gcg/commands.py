"""``frontier attack``, declared without importing torch or the attack code (entry point ``frontier.commands``)."""

from __future__ import annotations

from harness.api import LazyCommand

ATTACK = LazyCommand(
    "Generate jailbreak attacks (GCG, multi-model GCG) on white-box models.", "tasks.jailbreak_gcg.cli:attack_group"
)
