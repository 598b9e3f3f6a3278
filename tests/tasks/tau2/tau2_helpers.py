"""Helpers shared by the τ² tests."""

from __future__ import annotations

from tasks.tau2 import FAMILY
from tasks.tau2.task import Tau2DomainTask


def tau2_task(name: str, **args: object) -> Tau2DomainTask:
    """The τ² task called ``name`` built with ``args`` (``tau2/<domain>``, ``tau2/all`` or ``tau2-synth/<folder>``)."""
    entry = FAMILY.resolve(name)
    assert entry is not None, name
    task = entry.create(**args)
    assert isinstance(task, Tau2DomainTask), type(task)
    return task
