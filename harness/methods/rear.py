"""REAR, the realignment reward for test-time preference alignment, as a best-of-N selector.

For a candidate y to prompt x and a stated preference p (a system message), each token t
gets r_t = log π(y_t | x, y<t) + λ·(log π(y_t | x, p, y<t) − log π(y_t | x, y<t)); the
reward is the per-token average, i.e. mean(lp_x) + λ·(mean(lp_xp) − mean(lp_x)).
Both log-probabilities come from the adapter capability ``prompt_logprobs``; an adapter
without it is refused when the method is built, before any tokens are spent.

``--method rear:n=8,lam=20`` takes p from the request's system message(s);
``preference=...`` (no commas) or ``preference_file=PATH`` state it instead.
"""

from __future__ import annotations

import asyncio
import math
from collections.abc import Sequence
from pathlib import Path

from harness.adapters.base import ModelAdapter, prompt_logprobs_request, require_capability
from harness.context import labelled_calls
from harness.errors import ConfigError
from harness.methods.params import MethodParams
from harness.methods.selectors import Selection
from harness.types import GenerateRequest, Generation, Message

DEFAULT_LAMBDA = 20.0


def rear_reward(plain: Sequence[float], preferred: Sequence[float], lam: float = DEFAULT_LAMBDA) -> float:
    """Per-token average REAR reward from the continuation's logprobs without and with the preference.

    Token counts may differ when the two contexts tokenise the continuation differently, so the
    averages are taken separately; an empty continuation gets −inf.
    """
    if not plain or not preferred:
        return float("-inf")
    mean_plain = math.fsum(plain) / len(plain)
    mean_preferred = math.fsum(preferred) / len(preferred)
    return mean_plain + lam * (mean_preferred - mean_plain)


def split_preference(
    request: GenerateRequest, preference: str | None
) -> tuple[tuple[Message, ...], tuple[Message, ...]]:
    """The prompt without and with the preference: (x, x with p as a leading system message)."""
    if preference is not None:
        plain = request.messages
    else:
        system = [m.content or "" for m in request.messages if m.role == "system"]
        preference = "\n\n".join(s for s in system if s.strip())
        if not preference:
            raise ConfigError(
                "rear: the request has no system message stating a preference; "
                "give one with rear:preference=... or preference_file=PATH"
            )
        plain = tuple(m for m in request.messages if m.role != "system")
    return plain, (Message(role="system", content=preference), *plain)


class RearSelector:
    """Selects the candidate with the highest REAR reward (ties: the earliest)."""

    label = "rear"
    upper_bound = False

    def __init__(self, scorer: ModelAdapter, lam: float = DEFAULT_LAMBDA, preference: str | None = None) -> None:
        require_capability(scorer, "prompt_logprobs", "REAR")
        self.scorer = scorer
        self.lam = lam
        self.preference = preference

    @classmethod
    def from_params(cls, inner: ModelAdapter, params: MethodParams) -> RearSelector:
        """Built from ``lam``, ``preference`` and ``preference_file``."""
        lam = params.number("lam", DEFAULT_LAMBDA) or 0.0
        preference = params.text("preference", None)
        path = params.text("preference_file", None)
        if path is not None:
            if preference is not None:
                raise ConfigError("method rear: give 'preference' or 'preference_file', not both")
            try:
                preference = Path(path).read_text(encoding="utf-8").strip()
            except OSError as exc:
                raise ConfigError(f"method rear: parameter 'preference_file' cannot be read: {exc}") from None
            if not preference:
                raise ConfigError(f"method rear: parameter 'preference_file' {path} is empty")
        return cls(inner, lam, preference)

    async def _logprobs(self, messages: tuple[Message, ...], text: str) -> list[float]:
        generation = await self.scorer.generate(prompt_logprobs_request(messages, text))
        return [t.logprob for t in generation.logprobs or ()]

    async def select(self, request: GenerateRequest, candidates: list[Generation], seed: int) -> Selection:
        """Score every candidate under x and x+p (2N logged ``rear`` calls) and pick the best reward."""
        plain, preferred = split_preference(request, self.preference)
        with labelled_calls("rear"):
            scored = await asyncio.gather(
                *(self._logprobs(context, c.text) for c in candidates for context in (plain, preferred))
            )
        rewards = [rear_reward(scored[2 * i], scored[2 * i + 1], self.lam) for i in range(len(candidates))]
        index = max(range(len(rewards)), key=lambda i: (rewards[i], -i))
        return Selection(index, {"rewards": [r if math.isfinite(r) else None for r in rewards], "lam": self.lam})
