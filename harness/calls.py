"""The layer every model call goes through: cache, per-request timeout, retries, and the call log."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass

from harness.adapters.base import ModelAdapter
from harness.cache import ResponseCache, request_key
from harness.context import active_sample, call_role
from harness.errors import AdapterError, TransientError
from harness.failures import is_permanent
from harness.types import CallRecord, GenerateRequest, Generation


@dataclass(frozen=True)
class RetryPolicy:
    """Exponential backoff with full jitter, on transient failures only, capped in count and delay.

    A failure raised as transient whose message says it is permanent (a missing API key
    that litellm reports as a 500, say; see :func:`harness.failures.is_permanent`) is not retried.
    """

    max_retries: int = 6
    base_delay_s: float = 1.0
    max_delay_s: float = 30.0

    def delay(self, attempt: int, rng: random.Random) -> float:
        """Seconds to wait before retry number ``attempt`` (0-based)."""
        return rng.uniform(0, min(self.max_delay_s, self.base_delay_s * 2**attempt))


class CallingAdapter:
    """Wraps the model adapter: every call is cached when allowed, retried when transient and logged."""

    def __init__(
        self,
        inner: ModelAdapter,
        retry: RetryPolicy = RetryPolicy(),
        timeout_s: float | None = 600.0,
        cache: ResponseCache | None = None,
        force_cache: bool = False,
    ) -> None:
        self.inner = inner
        self.name = inner.name
        self.capabilities = inner.capabilities
        self.retry = retry
        self.timeout_s = timeout_s
        self.cache = cache if getattr(inner, "cacheable", True) else None
        self.force_cache = force_cache
        self._rng = random.Random(0)

    def __getattr__(self, attribute: str) -> object:
        return getattr(self.inner, attribute)

    async def _call_with_retries(self, request: GenerateRequest) -> tuple[Generation, int]:
        attempt = 0
        while True:
            try:
                if self.timeout_s is None:
                    return await self.inner.generate(request), attempt
                return await asyncio.wait_for(self.inner.generate(request), self.timeout_s), attempt
            except (TimeoutError, TransientError) as exc:
                reason = str(exc) or f"no answer within {self.timeout_s} s"
                if is_permanent(reason):
                    raise AdapterError(reason) from None
                if attempt >= self.retry.max_retries:
                    raise AdapterError(f"gave up after {attempt} retries; last failure: {reason}") from None
                context = active_sample()
                if context is not None:
                    context.retries += 1
                await asyncio.sleep(self.retry.delay(attempt, self._rng))
                attempt += 1

    async def generate(self, request: GenerateRequest) -> Generation:
        """Answer from the cache or the model, and log the call in the current sample.

        Only usable answers are cached (see :func:`harness.cache.is_usable_answer`), so a
        transient bad HTTP 200 is never replayed to a later run.
        """
        key = request_key(request)
        use_cache = self.cache is not None and (self.force_cache or request.is_deterministic())
        generation = self.cache.get(self.name, key) if use_cache and self.cache else None
        cached, retries = generation is not None, 0
        if generation is None:
            generation, retries = await self._call_with_retries(request)
            if use_cache and self.cache is not None:
                self.cache.put(self.name, key, generation)
        context = active_sample()
        if context is not None:
            context.calls.append(
                CallRecord(request_key=key, generation=generation, role=call_role.get(), retries=retries, cached=cached)
            )
        return generation

    async def aclose(self) -> None:
        """Close the wrapped adapter."""
        close = getattr(self.inner, "aclose", None)
        if close is not None:
            await close()


class LabelledAdapter:
    """Labels every call of the wrapped adapter with ``role`` in the sample's call log."""

    def __init__(self, inner: ModelAdapter, role: str) -> None:
        self.inner = inner
        self.role = role
        self.name = inner.name
        self.capabilities = inner.capabilities

    async def generate(self, request: GenerateRequest) -> Generation:
        """Generate with the calls labelled."""
        token = call_role.set(self.role)
        try:
            return await self.inner.generate(request)
        finally:
            call_role.reset(token)

    async def aclose(self) -> None:
        """Close the wrapped adapter."""
        close = getattr(self.inner, "aclose", None)
        if close is not None:
            await close()


def auxiliary_model(spec: str, role: str, retry: RetryPolicy = RetryPolicy()) -> LabelledAdapter:
    """A second model a task uses (simulated user, judge): retried, logged and costed in the sample as ``role``."""
    from harness.adapters import resolve_adapter

    return LabelledAdapter(CallingAdapter(resolve_adapter(spec), retry=retry), role)
