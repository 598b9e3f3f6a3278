"""Drawing N candidate generations for one request, each a separately logged, seeded call."""

from __future__ import annotations

import asyncio

from harness.adapters.base import ModelAdapter
from harness.methods.notes import derived_seed
from harness.types import GenerateRequest, Generation

DEFAULT_TEMPERATURE = 0.7


def candidate_request(
    request: GenerateRequest, index: int, base_seed: int, temperature: float | None
) -> GenerateRequest:
    """Candidate ``index``'s request: its own seed and a sampling temperature.

    With ``temperature`` None, the request's own temperature is kept unless it is greedy
    (0 or unset), where N copies would be identical; then DEFAULT_TEMPERATURE is used.
    """
    if temperature is None:
        temperature = request.temperature if request.temperature else DEFAULT_TEMPERATURE
    return request.model_copy(update={"seed": derived_seed(base_seed, index), "temperature": temperature, "n": 1})


async def sample_candidates(
    inner: ModelAdapter, request: GenerateRequest, n: int, base_seed: int, temperature: float | None = None
) -> list[Generation]:
    """``n`` generations for ``request``, drawn concurrently, in candidate order."""
    requests = [candidate_request(request, i, base_seed, temperature) for i in range(n)]
    return list(await asyncio.gather(*(inner.generate(r) for r in requests)))
