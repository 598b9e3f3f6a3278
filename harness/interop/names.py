"""How our task names are spelled in other harnesses (pure functions: importing this loads nothing)."""

from __future__ import annotations

INSPECT_PACKAGE = "frontier"
"""The inspect-ai package prefix of our tasks (``frontier/demo_arith``) and the entry-point name."""


def inspect_name(task_name: str) -> str:
    """The inspect name of a suite task: ``demo/arith`` -> ``demo_arith``."""
    return task_name.replace("/", "_").replace("-", "_")


def lm_eval_name(task_name: str) -> str:
    """The lm-eval task name of a suite task: ``demo/arith`` -> ``frontier_demo_arith``."""
    return f"{INSPECT_PACKAGE}_{inspect_name(task_name)}"
