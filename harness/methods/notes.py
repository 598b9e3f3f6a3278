"""What a method records about a sample besides its calls: budgets, votes, selections.

Notes go into ``SampleContext.method_data`` (a dict keyed by method name), which the
runner copies into the sample's result. Outside a run, notes are dropped.
"""

from __future__ import annotations

import hashlib
from typing import Any

from harness.context import SampleContext, active_sample
from harness.types import Generation


def method_data(context: SampleContext) -> dict[str, Any]:
    """The context's method-data dict."""
    return context.method_data


def note(method: str, **values: Any) -> None:
    """Record ``values`` under ``method`` for the sample being solved (merged with earlier notes)."""
    context = active_sample()
    if context is None:
        return
    method_data(context).setdefault(method, {}).update(values)


def note_selected(method: str, chosen: Generation) -> None:
    """Record which logged call gave ``chosen``, the candidate ``method`` selected: its index among the
    sample's calls, appended to the method's ``selected_calls`` (one per request the method answered)."""
    context = active_sample()
    if context is None:
        return
    index = next((i for i, call in enumerate(context.calls) if call.generation is chosen), None)
    if index is not None:
        method_data(context).setdefault(method, {}).setdefault("selected_calls", []).append(index)


def derived_seed(*parts: object) -> int:
    """A 31-bit seed from ``parts`` that is stable across processes."""
    digest = hashlib.sha256("|".join(map(str, parts)).encode()).digest()
    return int.from_bytes(digest[:4], "big") & 0x7FFFFFFF


def sample_seed(method: str) -> int:
    """The seed of the sample being solved, mixed with the method name (0 outside a run)."""
    context = active_sample()
    base = context.seed if context is not None else 0
    return derived_seed(base, method)
