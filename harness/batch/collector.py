"""Gather one adapter's requests into batches, submit them, poll them, and hand each answer to its caller.

A request waits in the pending group until no request joined for ``gather_s`` (or the first has
waited ``max_gather_s``) or the group is at the batch's request or byte limit; the group is then
submitted as one batch, recorded in the run's :class:`~harness.batch.state.BatchState`, and
polled with a growing interval until it ends. Its results are matched back by ``custom_id``
(:mod:`harness.batch.records`): an answer resolves its caller, a provider error fails it (a
transient one as :class:`TransientError`, which the calling layer retries in a later batch), and
a request the batch never worked on (it expired) is sent again in a new batch, at most
``max_resubmits`` times. A request the state file already places in a batch (a resumed run)
follows that batch instead of being submitted again; one in a submission that a killed process
left without its batch id is looked up by the submission's token first.
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
import uuid
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar

from harness.batch.backend import BatchBackend, BatchStatus, input_size
from harness.batch.config import BatchConfig
from harness.batch.records import Answer, Failure, Results
from harness.batch.state import BatchState
from harness.errors import AdapterError, TransientError
from harness.run_options import RetryPolicy
from harness.types import GenerateRequest, Generation

log = logging.getLogger(__name__)
T = TypeVar("T")


@dataclass
class Waiter:
    """A caller waiting for one request's answer; ``who`` is its task, sample and role."""

    request: GenerateRequest
    who: list[str]
    future: asyncio.Future[Generation]
    started: float
    resubmits: int = 0


class BatchCollector:
    """The batches of one adapter (``adapter`` is its name) through ``backend``.

    ``resend_failures`` (``--retry-errors``): a request that failed in a batch of an earlier process
    is sent again instead of failing again with the same answer.
    """

    def __init__(
        self,
        adapter: str,
        backend: BatchBackend,
        state: BatchState,
        config: BatchConfig,
        retry: RetryPolicy,
        resend_failures: bool = False,
    ) -> None:
        self.adapter = adapter
        self.resend_failures = resend_failures
        self.backend = backend
        self.state = state
        self.config = config
        self.retry = retry
        self.max_requests = max(1, min(config.max_requests, backend.max_requests))
        self.max_bytes = min(config.max_bytes, backend.max_bytes)
        self.waiters: dict[str, Waiter] = {}
        self._pending: list[tuple[str, dict[str, Any]]] = []
        self._pending_bytes = 0
        self._pending_since = 0.0
        self._timer: asyncio.TimerHandle | None = None
        self._pollers: dict[str, asyncio.Task[None]] = {}
        self._finished: dict[str, tuple[BatchStatus, Results]] = {}
        self._submitted_here: set[str] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._recovering: dict[str, list[str]] = {}
        self._rng = random.Random(0)

    async def answer(self, custom_id: str, who: list[str], request: GenerateRequest) -> Generation:
        """The answer to ``request`` from a batch: the one the state file places it in, else a new one."""
        future: asyncio.Future[Generation] = asyncio.get_running_loop().create_future()
        self.waiters[custom_id] = Waiter(request, who, future, time.perf_counter())
        try:
            submission = self.state.submission_of(self.adapter, custom_id)
            if submission is None:
                self._enqueue(custom_id)
            elif submission.batch_id is not None:
                self._follow(submission.batch_id, custom_id)
            else:
                self._recover(submission.token, custom_id)
            return await future
        finally:
            self.waiters.pop(custom_id, None)

    def _fail(self, custom_id: str, error: AdapterError) -> None:
        waiter = self.waiters.get(custom_id)
        if waiter is not None and not waiter.future.done():
            waiter.future.set_exception(error)

    def _enqueue(self, custom_id: str) -> None:
        """Add the request to the pending group, submitting the group first when the request would overfill it."""
        waiter = self.waiters[custom_id]
        try:
            line = self.backend.line(custom_id, waiter.request)
        except Exception as exc:  # a request the provider's format cannot express fails alone
            self._fail(custom_id, AdapterError(_reason(exc)))
            return
        size = input_size(line)
        if size > self.max_bytes:
            self._fail(
                custom_id, AdapterError(f"the request is {size:,} bytes, over the {self.max_bytes:,}-byte batch limit")
            )
            return
        if self._pending and self._pending_bytes + size > self.max_bytes:
            self._flush()
        loop = asyncio.get_running_loop()
        if not self._pending:
            self._pending_since = loop.time()
        self._pending.append((custom_id, line))
        self._pending_bytes += size
        if len(self._pending) >= self.max_requests:
            self._flush()
            return
        if self._timer is not None:
            self._timer.cancel()
        deadline = self._pending_since + max(self.config.gather_s, self.config.max_gather_s)
        self._timer = loop.call_at(min(loop.time() + self.config.gather_s, deadline), self._flush)

    def _flush(self) -> None:
        """Submit the pending group as one batch (in a task of its own)."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        if self._pending:
            group, self._pending, self._pending_bytes = self._pending, [], 0
            self._spawn(self._submit(group))

    def _spawn(self, work: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.get_running_loop().create_task(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def _retrying(self, call: Callable[[], Awaitable[T]], what: str) -> T:
        """``call()``, retried on transient failures with the run's backoff; AdapterError once it gives up."""
        attempt = 0
        while True:
            try:
                return await call()
            except TransientError as exc:
                if attempt >= self.retry.max_retries:
                    raise AdapterError(f"{what}: gave up after {attempt} retries; last failure: {exc}") from None
                await asyncio.sleep(self.retry.delay(attempt, self._rng))
                attempt += 1

    async def _submit(self, group: list[tuple[str, dict[str, Any]]]) -> None:
        lines = [line for _, line in group]
        token = uuid.uuid4().hex
        requests = {cid: self.waiters[cid].who if cid in self.waiters else ["?", "?", "?"] for cid, _ in group}
        self.state.submitting(token, self.adapter, requests, self.backend.price_note)
        try:
            batch_id = await self._retrying(lambda: self.backend.submit(lines, token), "submitting a batch")
        except Exception as exc:  # whatever went wrong, its callers fail with it instead of waiting for ever
            self.state.abandoned(token)
            for custom_id, _ in group:
                self._fail(custom_id, AdapterError(f"batch not submitted: {_reason(exc)}"))
            return
        self.state.submitted(token, batch_id)
        self._submitted_here.add(batch_id)
        log.info("batch %s: %d request(s) to %s submitted; polling", batch_id, len(group), self.adapter)
        self._follow(batch_id, None)

    def _recover(self, token: str, custom_id: str) -> None:
        """Settle ``custom_id`` of a submission a killed process left without a batch id, once it is looked up."""
        if token in self._recovering:
            self._recovering[token].append(custom_id)
        else:
            self._recovering[token] = [custom_id]
            self._spawn(self._look_up(token))

    async def _look_up(self, token: str) -> None:
        """Ask the provider for the batch of submission ``token``: follow it, or submit its requests anew."""
        try:
            batch_id = await self._retrying(lambda: self.backend.find(token), f"looking up submission {token}")
        except Exception as exc:  # whatever went wrong, its callers fail with it instead of waiting for ever
            for custom_id in self._recovering.pop(token, []):
                self._fail(custom_id, AdapterError(f"submission {token}: {_reason(exc)}"))
            return
        waiting = self._recovering.pop(token, [])
        if batch_id is None:
            self.state.abandoned(token)
            log.info("submission %s: the provider holds no batch of it; its requests are submitted again", token)
            for custom_id in waiting:
                if custom_id in self.waiters:
                    self._enqueue(custom_id)
            return
        self.state.submitted(token, batch_id)
        log.info("submission %s: found as batch %s", token, batch_id)
        for custom_id in waiting:
            self._follow(batch_id, custom_id)

    def _follow(self, batch_id: str, custom_id: str | None) -> None:
        """Settle ``custom_id`` from ``batch_id``'s results once it has ended, polling it if nobody does yet."""
        if batch_id in self._finished:
            if custom_id is not None:
                self._settle(custom_id, batch_id)
        elif batch_id not in self._pollers:
            self._pollers[batch_id] = self._spawn(self._poll(batch_id))

    async def _poll(self, batch_id: str) -> None:
        members = self.state.members(batch_id)
        delay = self.config.poll_s
        try:
            while True:
                status = await self._retrying(lambda: self.backend.status(batch_id), f"polling batch {batch_id}")
                if status.ended:
                    break
                await asyncio.sleep(delay)
                delay = min(delay * self.config.poll_factor, self.config.max_poll_s)
            results = await self._retrying(
                lambda: self.backend.results(status, members), f"reading the results of batch {batch_id}"
            )
        except Exception as exc:  # whatever went wrong, its callers fail with it instead of waiting for ever
            self._pollers.pop(batch_id, None)
            for custom_id in members:
                message = f"batch {batch_id}: {_reason(exc)} (frontier run --resume --retry-errors polls it again)"
                self._fail(custom_id, AdapterError(message))
            return
        self._record_end(batch_id, status, results, members)
        self._finished[batch_id] = (status, results)
        self._pollers.pop(batch_id, None)
        for custom_id in members:
            self._settle(custom_id, batch_id)

    def _record_end(self, batch_id: str, status: BatchStatus, results: Results, members: set[str]) -> None:
        outcomes = results.outcomes.values()
        counts = {
            "answered": sum(isinstance(o, Answer) for o in outcomes),
            "errors": sum(isinstance(o, Failure) for o in outcomes),
            "unanswered": len(members) - sum(isinstance(o, (Answer, Failure)) for o in outcomes),
        }
        self.state.ended(batch_id, status.state, counts, results.anomalies.as_dict())
        if results.anomalies.total():
            log.warning("batch %s: %s; not attributed to any request", batch_id, results.anomalies.describe())
        log.info("batch %s %s: %s", batch_id, status.state, ", ".join(f"{v} {k}" for k, v in counts.items()))

    def _settle(self, custom_id: str, batch_id: str) -> None:
        """Resolve the caller of ``custom_id`` (if one waits) from the ended batch's outcome for it."""
        waiter = self.waiters.get(custom_id)
        if waiter is None or waiter.future.done():
            return
        status, results = self._finished[batch_id]
        outcome = results.outcomes.pop(custom_id, None)
        if isinstance(outcome, Answer):
            latency = time.perf_counter() - waiter.started
            try:
                waiter.future.set_result(self.backend.generation(waiter.request, outcome.body, latency))
            except Exception as exc:  # a body the records cannot hold fails its request, never the batch
                waiter.future.set_exception(AdapterError(f"batch {batch_id}: {_reason(exc)}"))
        elif isinstance(outcome, Failure) and self._resends(batch_id, waiter):
            self._enqueue(custom_id)
        elif isinstance(outcome, Failure):
            kind = TransientError if outcome.transient else AdapterError
            waiter.future.set_exception(kind(f"batch {batch_id}: {outcome.message}"))
        elif status.state in ("failed", "cancelled") and batch_id in self._submitted_here:
            reason = f": {status.message}" if status.message else ""
            waiter.future.set_exception(
                AdapterError(
                    f"batch {batch_id} {status.state} before answering this request{reason} "
                    "(frontier run --resume --retry-errors sends it again)"
                )
            )
        elif self._resends(None, waiter):
            self._enqueue(custom_id)
        else:
            waiter.future.set_exception(
                AdapterError(
                    f"batch {batch_id} {status.state} without answering this request, "
                    f"after {waiter.resubmits} resubmission(s)"
                )
            )

    def _resends(self, failed_in: str | None, waiter: Waiter) -> bool:
        """Whether to send a request again (counting it): one left unanswered, or (``failed_in`` a batch of an
        earlier process) one that failed there, when this run retries errors; at most ``max_resubmits`` times."""
        if failed_in is not None and not (self.resend_failures and failed_in not in self._submitted_here):
            return False
        if waiter.resubmits >= self.config.max_resubmits:
            return False
        waiter.resubmits += 1
        return True

    async def aclose(self) -> None:
        """Stop gathering and polling (a batch in flight stays recorded for a resumed run) and close the backend."""
        if self._timer is not None:
            self._timer.cancel()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.backend.aclose()


def _reason(exc: Exception) -> str:
    """An exception as one line: the harness's own message, else its type and message."""
    return str(exc) if isinstance(exc, AdapterError) else f"{type(exc).__name__}: {exc}"
