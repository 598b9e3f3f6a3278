"""The layer every model call goes through: cache, per-request timeout, retries, a bound per adapter, the call log.

A run's :class:`CallSettings` say how every call is made; the runner wraps its model with
them and makes them active (:func:`using_call_settings`), so that the second models a task
builds with :func:`auxiliary_model` (simulated users, judges, reward models) are called
with the same retries, timeout, cache and seed, under the same per-adapter request bound.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from contextlib import AbstractAsyncContextManager, contextmanager, nullcontext
from contextvars import ContextVar
from dataclasses import dataclass, field, replace

from harness.adapters.base import ModelAdapter, close_adapter
from harness.batch.session import BatchSession
from harness.cache import ResponseCache, request_key
from harness.context import active_sample, call_role
from harness.errors import AdapterError, ConfigError, TransientError
from harness.failures import is_permanent
from harness.run_options import DEFAULT_TIMEOUT_S, RetryPolicy, RunOptions
from harness.transcript import SIMULATED_USER
from harness.types import CallRecord, GenerateRequest, Generation, Timing

__all__ = [
    "DEFAULT_TIMEOUT_S",
    "CallSettings",
    "CallingAdapter",
    "LabelledAdapter",
    "RequestSlots",
    "RetryPolicy",
    "active_call_settings",
    "auxiliary_model",
    "using_call_settings",
]


class CallingAdapter:
    """Wraps the model adapter: every call is cached when allowed, retried when transient and logged.

    With ``slots``, at most that semaphore's value of requests are in flight to the adapter
    (cache hits and backoff waits hold no slot).
    """

    def __init__(
        self,
        inner: ModelAdapter,
        retry: RetryPolicy | None = None,
        timeout_s: float | None = DEFAULT_TIMEOUT_S,
        cache: ResponseCache | None = None,
        force_cache: bool = False,
        slots: asyncio.Semaphore | None = None,
    ) -> None:
        self.inner = inner
        self.name = inner.name
        self.capabilities = inner.capabilities
        self.retry = retry or RetryPolicy()
        self.timeout_s = timeout_s
        self.cache = cache if getattr(inner, "cacheable", True) else None
        self.force_cache = force_cache
        self.slots = slots
        self._rng = random.Random(0)

    def __getattr__(self, attribute: str) -> object:
        return getattr(self.inner, attribute)

    def _slot(self) -> AbstractAsyncContextManager[object]:
        return self.slots if self.slots is not None else nullcontext()

    async def _call_once(self, request: GenerateRequest) -> Generation:
        batched = getattr(self.inner, "answers_in_batch", None)
        if callable(batched) and batched(request):  # waits for a batch (hours): no slot, no per-request timeout
            return await self.inner.generate(request)
        async with self._slot():
            started = time.time()
            if self.timeout_s is None:
                generation = await self.inner.generate(request)
            else:
                generation = await asyncio.wait_for(self.inner.generate(request), self.timeout_s)
        return sent_at(generation, started)

    async def _call_with_retries(self, request: GenerateRequest) -> tuple[Generation, int]:
        attempt = 0
        while True:
            try:
                return await self._call_once(request), attempt
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
        """Answer from the cache or the model, and log the call (and its messages, once) in the current sample.

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
            role = call_role.get()
            context.calls.append(
                CallRecord(
                    request_key=key,
                    generation=generation,
                    role=role,
                    retries=retries,
                    cached=cached,
                    messages=context.transcript.spans(request.messages, swapped=role == SIMULATED_USER),
                    roles_swapped=role == SIMULATED_USER,
                )
            )
        return generation

    async def aclose(self) -> None:
        """Close the wrapped adapter."""
        await close_adapter(self.inner)


def sent_at(generation: Generation, started: float) -> Generation:
    """``generation`` with the wall-clock time its request was sent (``timing.started_at``), for throughput."""
    timing = generation.timing or Timing()
    return generation.model_copy(update={"timing": timing.model_copy(update={"started_at": started})})


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
        await close_adapter(self.inner)


class RequestSlots:
    """One semaphore per adapter name, so that every wrapper of the same adapter shares its bound."""

    def __init__(self) -> None:
        self._by_adapter: dict[str, asyncio.Semaphore] = {}

    def of(self, adapter: str, bound: int) -> asyncio.Semaphore:
        """The semaphore bounding requests to ``adapter`` (made with ``bound`` the first time)."""
        if adapter not in self._by_adapter:
            self._by_adapter[adapter] = asyncio.Semaphore(max(1, bound))
        return self._by_adapter[adapter]


@dataclass(frozen=True)
class CallSettings:
    """How every model call of a run is made: retries, timeout, cache, the adapters' seed, requests per adapter.

    ``max_requests`` (None: unbounded) is the most requests in flight to one adapter; the
    adapters wrapped by the same settings share one bound per adapter name. With ``batch``
    (a run's batch mode), adapters that batch answer through it (:mod:`harness.batch`).
    """

    retry: RetryPolicy = field(default_factory=RetryPolicy)
    timeout_s: float | None = DEFAULT_TIMEOUT_S
    cache: ResponseCache | None = None
    force_cache: bool = False
    seed: int = 0
    max_requests: int | None = None
    slots: RequestSlots = field(default_factory=RequestSlots, compare=False, repr=False)
    batch: BatchSession | None = field(default=None, compare=False, repr=False)

    @classmethod
    def of_run(cls, options: RunOptions, seed: int) -> CallSettings:
        """A run's call settings: its retries, timeout and cache, ``seed``, and ``concurrency`` requests per adapter."""
        return cls(
            retry=options.retry,
            timeout_s=options.request_timeout_s,
            cache=ResponseCache(options.cache_path) if options.cache_path else None,
            force_cache=options.force_cache,
            seed=seed,
            max_requests=options.concurrency,
            batch=(
                BatchSession(options.batch_dir, options.batch_all, options.retry, options.retry_errors)
                if options.batch_dir
                else None
            ),
        )

    def wrap(self, adapter: ModelAdapter) -> CallingAdapter:
        """``adapter`` behind the calling layer with these settings."""
        if self.batch is not None:
            adapter = self.batch.wrap(adapter)
        elif getattr(adapter, "batch_requested", False):
            raise ConfigError("-M batch=true needs 'frontier run' (its run directory keeps the batches)")
        bound = self.slots.of(adapter.name, self.max_requests) if self.max_requests is not None else None
        return CallingAdapter(
            adapter,
            retry=self.retry,
            timeout_s=self.timeout_s,
            cache=self.cache,
            force_cache=self.force_cache,
            slots=bound,
        )

    def resolve(self, spec: str, **options: object) -> CallingAdapter:
        """The adapter for ``spec`` (built with these settings' seed and ``options``) behind the calling layer."""
        from harness.adapters import resolve_adapter

        return self.wrap(resolve_adapter(spec, seed=self.seed, **options))


_active_settings: ContextVar[CallSettings | None] = ContextVar("call_settings", default=None)


@contextmanager
def using_call_settings(settings: CallSettings) -> Iterator[CallSettings]:
    """Make ``settings`` the ones :func:`auxiliary_model` builds with inside the block (and its asyncio tasks)."""
    token = _active_settings.set(settings)
    try:
        yield settings
    finally:
        _active_settings.reset(token)


def active_call_settings() -> CallSettings:
    """The run's call settings, or the defaults outside a run."""
    return _active_settings.get() or CallSettings()


def auxiliary_model(spec: str, role: str, retry: RetryPolicy | None = None) -> LabelledAdapter:
    """A second model a task uses (simulated user, judge), built with the run's call settings.

    Its calls are retried, timed out, cached and bounded as the run's model's are, and logged
    and costed in the sample as ``role``; ``retry`` replaces the run's retry policy.
    """
    settings = active_call_settings()
    if retry is not None:
        settings = replace(settings, retry=retry)
    return LabelledAdapter(settings.resolve(spec), role)
