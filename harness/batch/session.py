"""A run's batch mode: which adapters batch, one collector per adapter, and the notices said once.

:class:`BatchSession` is made by :meth:`harness.calls.CallSettings.of_run` when a run batches;
:meth:`BatchSession.wrap` puts :class:`BatchingAdapter` around each adapter that has a batch
backend (:func:`harness.batch.providers.backend_for`) and is asked to batch: every one under ``--batch``, the run's
model alone under ``-M batch=true``. A request's ``custom_id`` is a digest of the adapter, the
task, sample and role it belongs to, the request itself and how many times the sample made that
request before, so a resumed run, which solves the same samples again, finds the same ids.
"""

from __future__ import annotations

import hashlib
import logging
from collections import Counter
from pathlib import Path

from harness.adapters.base import ModelAdapter, close_adapter
from harness.batch.collector import BatchCollector
from harness.batch.config import BatchConfig
from harness.batch.providers import backend_for
from harness.batch.state import BatchState
from harness.cache import request_key
from harness.context import active_sample, call_role
from harness.errors import ConfigError
from harness.run_options import RetryPolicy
from harness.types import GenerateRequest, Generation

log = logging.getLogger(__name__)


class BatchSession:
    """One run's batch mode, its state in ``run_dir``; ``every_adapter``: ``--batch`` (else ``-M batch=true``).

    ``retry_errors`` (``--retry-errors``): requests that failed in an earlier process's batch are sent again.
    """

    def __init__(
        self,
        run_dir: Path,
        every_adapter: bool,
        retry: RetryPolicy,
        retry_errors: bool = False,
        config: BatchConfig | None = None,
    ) -> None:
        self.run_dir = run_dir
        self.retry_errors = retry_errors
        self.every_adapter = every_adapter
        self.retry = retry
        self.config = config or BatchConfig.from_env()
        self._state: BatchState | None = None
        self._collectors: dict[str, BatchCollector] = {}
        self._said: set[str] = set()
        self._occurrences: Counter[str] = Counter()

    def say_once(self, message: str) -> None:
        """Log ``message`` the first time it is said in this run."""
        if message not in self._said:
            self._said.add(message)
            log.warning("%s", message)

    @property
    def state(self) -> BatchState:
        """The run directory's batch state, read when first needed; written only once the run holds the directory."""
        if self._state is None:
            self._state = BatchState(self.run_dir)
        return self._state

    def wrap(self, adapter: ModelAdapter) -> ModelAdapter:
        """``adapter`` answering through batches when it is asked to and can; else ``adapter`` itself.

        An adapter given ``-M batch=true`` whose provider has no batch endpoint is a ConfigError; under
        ``--batch`` such an adapter is said once and called as usual.
        """
        requested = bool(getattr(adapter, "batch_requested", False))
        if not (self.every_adapter or requested):
            return adapter
        collector = self._collectors.get(adapter.name)
        if collector is None:
            backend = backend_for(adapter)
            if isinstance(backend, str):
                if requested:
                    raise ConfigError(f"-M batch=true: {backend}")
                self.say_once(f"--batch: {backend}; its requests are sent one at a time")
                return adapter
            if backend.price_note:
                log.info("batch cost of %s", backend.price_note)
            collector = BatchCollector(
                adapter.name, backend, self.state, self.config, self.retry, resend_failures=self.retry_errors
            )
            self._collectors[adapter.name] = collector
        return BatchingAdapter(adapter, collector, self)

    def custom_id(self, adapter: str, request: GenerateRequest) -> tuple[str, list[str]]:
        """The request's ``custom_id`` and who made it (task, sample, role), as the module docstring describes."""
        context = active_sample()
        who = (
            [context.task.name, context.sample.id, call_role.get()]
            if context is not None
            else ["-", "-", call_role.get()]
        )
        identity = "\x1f".join([adapter, *who, request_key(request)])
        self._occurrences[identity] += 1
        digest = hashlib.sha256(f"{identity}\x1f{self._occurrences[identity]}".encode()).hexdigest()
        return f"fe-{digest[:40]}", who

    async def aclose(self) -> None:
        """Stop every collector (batches in flight stay recorded for ``--resume``)."""
        collectors, self._collectors = list(self._collectors.values()), {}
        for collector in collectors:
            await collector.aclose()


class BatchingAdapter:
    """An adapter whose single-turn requests are answered from batches; others go to it directly.

    The calling layer asks :meth:`answers_in_batch` first: a request answered in a batch holds no
    request slot and has no per-request timeout (a batch has a completion window of hours).
    """

    def __init__(self, inner: ModelAdapter, collector: BatchCollector, session: BatchSession) -> None:
        self.inner = inner
        self.collector = collector
        self.session = session
        self.name = inner.name
        self.capabilities = inner.capabilities
        self.cacheable = getattr(inner, "cacheable", True)

    def answers_in_batch(self, request: GenerateRequest) -> bool:
        """True unless the request is part of a multi-turn episode or has no batch form (said once per kind)."""
        context = active_sample()
        if context is not None and context.task.multi_turn:
            self.session.say_once(
                f"--batch: {context.task.name} is multi-turn (each turn waits for the last); "
                "its episodes call the model directly"
            )
            return False
        reason = self.collector.backend.refuses(request)
        if reason is not None:
            self.session.say_once(f"--batch: some requests to {self.name} are sent directly: {reason}")
            return False
        return True

    async def generate(self, request: GenerateRequest) -> Generation:
        """The answer from a batch, or from the adapter when the request is not batched."""
        if not self.answers_in_batch(request):
            return await self.inner.generate(request)
        custom_id, who = self.session.custom_id(self.name, request)
        return await self.collector.answer(custom_id, who, request)

    async def aclose(self) -> None:
        """Close the wrapped adapter (the collector belongs to the session)."""
        await close_adapter(self.inner)
