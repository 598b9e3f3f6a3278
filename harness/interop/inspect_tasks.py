"""The ``inspect_ai`` entry-point module: every suite task as the inspect task ``frontier/<name>``.

inspect-ai loads the entry point called ``frontier`` when asked for a task named
``frontier/...`` (``ep.load()``: an import) and then looks the name up in its registry, so
importing this module is what registers the tasks: it is the one module with an import-time
effect, imported by inspect's loader and by nothing in this project (the name helpers are in
:mod:`harness.interop.names`). Names spell ``/`` and ``-`` as ``_``: ``demo/arith`` is
``frontier/demo_arith``. Task arguments pass through ``-T key=value`` to the task's own ``Args``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from harness.errors import FrontierError
from harness.interop.names import INSPECT_PACKAGE, inspect_name

if TYPE_CHECKING:
    from inspect_ai import Task as InspectTask

log = logging.getLogger(__name__)


def _factory(task_name: str) -> Callable[..., InspectTask]:
    from harness.interop.inspect_bridge import inspect_task
    from harness.registry import resolve_task

    def create(**args: object) -> InspectTask:
        return inspect_task(resolve_task(task_name).create(**args))

    create.__name__ = create.__qualname__ = inspect_name(task_name)
    create.__doc__ = f"frontier task {task_name} (arguments: its -T options)."
    # inspect prefixes a registered name with the top-level import package of the factory's
    # module when that is installed (it would give 'harness/frontier/...'); a module that is
    # not imported leaves the name exactly as given, however the suite is installed.
    create.__module__ = INSPECT_PACKAGE
    return create


def register_all() -> dict[str, str]:
    """Register every suite task with inspect; returns inspect name -> suite name."""
    from inspect_ai import task

    from harness.registry import task_entries

    registered: dict[str, str] = {}
    for task_name in sorted(task_entries()):
        name = f"{INSPECT_PACKAGE}/{inspect_name(task_name)}"
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
"""inspect name -> suite name of every task registered when inspect loaded this module."""
