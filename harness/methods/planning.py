"""The batch-planning hook: methods that must see the whole batch before generating (CLEAR)."""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from typing import Any

from harness.types import Sample


def method_chain(model: Any) -> list[Any]:
    """The adapters from ``model`` inwards, following ``.inner`` (outermost first)."""
    chain, seen = [], set()
    while model is not None and id(model) not in seen:
        seen.add(id(model))
        chain.append(model)
        model = getattr(model, "inner", None)
    return chain


async def plan_methods(model: Any, samples: Sequence[Sample], task: Any = None) -> int:
    """Call ``plan(samples, task=task)`` on every method of the chain that has one, innermost first.

    Returns how many methods planned. The runner calls this once per task, before any sample
    of that task is generated, with ALL the task's samples of the run (already-logged ones
    included, so that a resumed run allocates exactly as the first attempt did).
    """
    planned = 0
    for adapter in reversed(method_chain(model)):
        hook = getattr(type(adapter), "plan", None)
        if hook is None:
            continue
        outcome = adapter.plan(list(samples), task=task)
        if inspect.isawaitable(outcome):
            await outcome
        planned += 1
    return planned
