"""Per-sample context shared by the runner, the recording layer and the builtin adapters.

The runner sets ``current_sample`` around each sample's solve, so that adapters that
answer from the task (``builtin/oracle``) and the layer that logs calls know which
sample a request belongs to, without the request carrying it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from harness.transcript import TranscriptBuilder
from harness.types import CallRecord

if TYPE_CHECKING:
    from harness.task import Task
    from harness.types import Sample


@dataclass
class SampleContext:
    """The task and sample being solved, their seed, the calls made so far and the messages they were made on."""

    task: Task
    sample: Sample
    seed: int
    calls: list[CallRecord] = field(default_factory=list)
    retries: int = 0
    method_data: dict[str, Any] = field(default_factory=dict)
    transcript: TranscriptBuilder = field(default_factory=TranscriptBuilder)


current_sample: ContextVar[SampleContext | None] = ContextVar("current_sample", default=None)
call_role: ContextVar[str] = ContextVar("call_role", default="model")


@contextmanager
def labelled_calls(role: str) -> Iterator[None]:
    """Label the model calls made inside the block (``critic``, ``reasoner``, ``prm``...) in the log."""
    token = call_role.set(role)
    try:
        yield
    finally:
        call_role.reset(token)


def active_sample() -> SampleContext | None:
    """The sample being solved in this asyncio task, if any."""
    return current_sample.get()
