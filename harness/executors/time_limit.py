"""A limit on the CPU time one sample's scoring may take, in whatever thread or process it runs.

A model's output must never stall a run: a scorer that spins on a hostile answer is stopped when
its thread has used ``limit`` seconds of CPU, and the sample is ``unscored`` with the reason
(``scoring time limit N s``), never a score. The limit counts the scoring thread's own CPU time
(``pthread_getcpuclockid``), not wall time, so neither a busy machine nor time spent queued for a
worker decides it; a scorer that waits on a subprocess (a prover) spends no CPU here and keeps its
own limits.

One watchdog thread per process polls the guarded threads' CPU clocks and raises
:class:`ScoringTimeLimit` in a thread over its limit (``PyThreadState_SetAsyncExc``): Python code
stops at its next bytecode; a single long call into C code stops when it returns.
"""

from __future__ import annotations

import ctypes
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from harness.types import Score

POLL_S = 0.05
"""How often the watchdog reads the guarded threads' clocks (a limit is enforced this late at most)."""


class ScoringTimeLimit(BaseException):
    """Raised inside a scoring thread that used up its CPU time (a BaseException, so a scorer's
    ``except Exception`` cannot swallow it)."""


@dataclass
class _Guard:
    ident: int
    clock: int
    deadline: float
    fired: bool = field(default=False)


class _Watchdog:
    """Watches the guarded threads of this process and stops each one that passes its deadline."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._guards: dict[int, _Guard] = {}
        self._wake = threading.Condition(self._lock)
        self._thread: threading.Thread | None = None

    @contextmanager
    def guard(self, limit_s: float) -> Iterator[_Guard]:
        """Guard the calling thread for the block; the yielded guard says whether it fired."""
        ident = threading.get_ident()
        clock = time.pthread_getcpuclockid(ident)
        guard = _Guard(ident, clock, time.clock_gettime(clock) + limit_s)
        with self._lock:
            idle = not self._guards
            self._guards[ident] = guard
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._watch, name="scoring-time-limit", daemon=True)
                self._thread.start()
            elif idle:  # the watchdog sleeps until there is something to watch; otherwise it is polling
                self._wake.notify()
        try:
            yield guard
        finally:
            self._leave(guard)

    def _leave(self, guard: _Guard) -> None:
        """Stop guarding ``guard``'s thread, clearing a stop sent but not yet raised so it cannot escape.

        The one stop a guard can be sent may arrive while this runs: the lock is released by its
        ``with``, and the removal is simply done again.
        """
        for _ in range(2):
            try:
                with self._lock:
                    self._guards.pop(guard.ident, None)
                    if guard.fired:
                        ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(guard.ident), None)
                return
            except ScoringTimeLimit:
                continue

    def guarding(self) -> bool:
        """Whether the calling thread is inside a guarded block."""
        with self._lock:
            return threading.get_ident() in self._guards

    def _watch(self) -> None:
        with self._lock:
            while True:
                if not self._guards:
                    self._wake.wait()
                    continue
                for guard in self._guards.values():
                    if not guard.fired and time.clock_gettime(guard.clock) >= guard.deadline:
                        guard.fired = True
                        ctypes.pythonapi.PyThreadState_SetAsyncExc(
                            ctypes.c_ulong(guard.ident), ctypes.py_object(ScoringTimeLimit)
                        )
                self._wake.wait(POLL_S)


_WATCHDOG = _Watchdog()


def time_limit_score(limit_s: float) -> Score:
    """The ``unscored`` score of a sample whose scoring ran out of time."""
    return Score.unscored(f"scoring time limit {limit_s:g} s", stage="scoring", time_limit_s=limit_s)


def score_within(limit_s: float, score: Callable[[], Score]) -> Score:
    """``score()``, or :func:`time_limit_score` when it uses more than ``limit_s`` seconds of this thread's CPU.

    Inside a block already guarded in this thread, ``score()`` runs under the outer guard.
    """
    if _WATCHDOG.guarding():
        return score()
    result: Score | None = None
    try:
        with _WATCHDOG.guard(limit_s) as guard:
            try:
                result = score()
            except ScoringTimeLimit:
                result = None
            if time.clock_gettime(guard.clock) >= guard.deadline:  # over the limit, stopped or not
                result = None
    except ScoringTimeLimit:  # delivered just after score() returned, before the guard was lifted
        result = None
    return time_limit_score(limit_s) if result is None else result
