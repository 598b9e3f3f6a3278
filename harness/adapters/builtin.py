"""Reference baselines: ``builtin/oracle`` answers with each sample's reference, ``builtin/random`` guesses.

Both read the sample being solved from the runner's context and ask the task to
render the answer, so they work for every task, multi-turn ones included.
"""

from __future__ import annotations

import hashlib
import random

from harness.adapters.base import checked_options
from harness.context import active_sample
from harness.errors import AdapterError, ConfigError
from harness.types import GenerateRequest, Generation, Usage


def _whitespace_tokens(request: GenerateRequest) -> int:
    return sum(len((m.content or "").split()) for m in request.messages)


def _as_generation(answer: Generation | str, request: GenerateRequest, model: str) -> Generation:
    generation = answer if isinstance(answer, Generation) else Generation(text=answer, finish_reason="stop")
    usage = Usage(
        input_tokens=_whitespace_tokens(request),
        output_tokens=len(generation.text.split()) + len(generation.tool_calls),
    )
    return generation.model_copy(update={"usage": usage, "cost_usd": 0.0, "model": model})


class OracleAdapter:
    """Answers with the task's reference output for the current sample."""

    name = "builtin/oracle"
    capabilities = frozenset({"chat", "tools"})
    cacheable = False

    async def generate(self, request: GenerateRequest) -> Generation:
        """The reference answer, rendered by the task."""
        context = active_sample()
        if context is None:
            raise AdapterError("builtin/oracle answers only inside a run: it needs the sample being solved")
        return _as_generation(context.task.reference_output(context.sample, request), request, self.name)


class RandomAdapter:
    """Seeded guesses from the task's answer space; the same seed gives the same guesses."""

    capabilities = frozenset({"chat", "tools"})
    cacheable = False

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.name = "builtin/random"

    async def generate(self, request: GenerateRequest) -> Generation:
        """A guess seeded by the run seed, the sample and the request."""
        context = active_sample()
        if context is None:
            raise AdapterError("builtin/random answers only inside a run: it needs the sample being solved")
        digest = hashlib.sha256(f"{self.seed}|{context.sample.id}|{len(request.messages)}".encode()).hexdigest()
        rng = random.Random(digest)
        return _as_generation(context.task.random_output(context.sample, request, rng), request, self.name)


def create(rest: str, seed: int = 0, **options: object) -> OracleAdapter | RandomAdapter:
    """``builtin/oracle`` or ``builtin/random`` (they take no ``-M`` options)."""
    checked_options("builtin", options, {})
    if rest == "oracle":
        return OracleAdapter()
    if rest == "random":
        return RandomAdapter(seed=seed)
    raise ConfigError(f"unknown builtin adapter 'builtin/{rest}'; choose builtin/oracle or builtin/random")
