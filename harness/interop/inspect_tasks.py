"""The ``inspect_ai`` entry-point module: every suite task as the inspect task ``frontier/<name>``.

inspect-ai loads the entry point called ``frontier`` when asked for a task named
``frontier/...`` and looks the name up in its registry; importing this module fills it.
Names spell ``/`` and ``-`` as ``_``: ``demo/arith`` is ``frontier/demo_arith``. Task
arguments pass through ``-T key=value`` to the task's own ``Args``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from harness.errors import FrontierError

log = logging.getLogger(__name__)

PACKAGE = "frontier"


def inspect_name(task_name: str) -> str:
    """The inspect name of a suite task: ``demo/arith`` -> ``demo_arith``."""
    return task_name.replace("/", "_").replace("-", "_")


def _factory(task_name: str) -> Callable[..., Any]:
    from harness.interop.inspect_bridge import inspect_task
    from harness.registry import resolve_task

    def create(**args: Any) -> Any:
        return inspect_task(resolve_task(task_name).create(**args))

    create.__name__ = create.__qualname__ = inspect_name(task_name)
    create.__doc__ = f"frontier task {task_name} (arguments: its -T options)."
    # inspect prefixes a registered name with the top-level import package of the factory's
    # module when that is installed (it would give 'harness/frontier/...'); a module that is
    # not imported leaves the name exactly as given, however the suite is installed.
    create.__module__ = PACKAGE
    return create


def register_all() -> dict[str, str]:
    """Register every suite task with inspect; returns inspect name -> suite name."""
    from inspect_ai import task

    from harness.registry import task_entries

    registered: dict[str, str] = {}
    for task_name in sorted(task_entries()):
        name = f"{PACKAGE}/{inspect_name(task_name)}"
        if name in registered:
            log.warning(
                "inspect task %s: both %s and %s map to it; keeping %s",
                name,
                registered[name],
                task_name,
                registered[name],
            )
            continue
        try:
            task(name=name)(_factory(task_name))
        except (FrontierError, ValueError, TypeError) as exc:
            log.warning("inspect task %s not registered: %s", name, exc)
            continue
        registered[name] = task_name
    return registered


REGISTERED = register_all()
