"""A bound on how long a run takes to stop after Ctrl-C or SIGTERM.

asyncio turns the first Ctrl-C into a cancellation of the run, and the run then stops cleanly:
it writes what it has and its summary. But a cancellation cannot stop work that blocks a thread
(a model being loaded, a generation or a scorer in a worker thread, a library's synchronous call),
and ``asyncio.run`` waits for those threads before it returns: a stop took 1 s once and 12 s
another time. :class:`StopBound` runs the run's coroutine with asyncio's Ctrl-C handler wrapped:
the first Ctrl-C starts a timer of ``grace`` seconds and cancels the run as before; if the process
is still running when the timer fires, or at a second Ctrl-C, ``on_stuck`` is called (it says how
to resume and ends the process at once). Nothing logged is lost by that: the run log is append-only
and every completed sample is on disk before it counts as done; resuming rereads it.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Coroutine
from types import FrameType
from typing import Any, TypeVar

T = TypeVar("T")

STOP_GRACE_SECONDS = 5.0
"""How long a run may take to stop cleanly after Ctrl-C before it is ended at once."""


class StopBound:
    """Ends a stopping run that takes more than ``grace`` seconds after Ctrl-C (see the module).

    Use it around ``asyncio.run`` and guard the run's coroutine with it::

        with StopBound(on_stuck) as bound:
            summary = asyncio.run(bound.guard(execute(plan, out_dir, options)))

    The timer stays armed while ``asyncio.run`` waits for worker threads after the coroutine
    returns; leaving the ``with`` block disarms it.
    """

    def __init__(self, on_stuck: Callable[[], None] | None, grace: float = STOP_GRACE_SECONDS) -> None:
        self.on_stuck = on_stuck
        self.grace = grace
        self._timer: threading.Timer | None = None

    def __enter__(self) -> StopBound:
        return self

    def __exit__(self, *exc_info: object) -> None:
        if self._timer is not None:
            self._timer.cancel()

    async def guard(self, run: Coroutine[Any, Any, T]) -> T:
        """Await ``run`` with asyncio's Ctrl-C handler wrapped by the bound.

        asyncio installs that handler before the coroutine starts. Outside the main thread, or
        where asyncio installed none (a caller with its own SIGINT handler), or with no ``on_stuck``,
        ``run`` is awaited as it is.
        """
        inner = signal.getsignal(signal.SIGINT)
        on_stuck = self.on_stuck
        if on_stuck is None or threading.current_thread() is not threading.main_thread() or not callable(inner):
            return await run
        if inner is signal.default_int_handler:
            return await run

        def on_interrupt(signum: int, frame: FrameType | None) -> None:
            if self._timer is not None:  # a second Ctrl-C: stop waiting
                on_stuck()
                return
            self._timer = threading.Timer(self.grace, on_stuck)
            self._timer.daemon = True
            self._timer.start()
            inner(signum, frame)

        signal.signal(signal.SIGINT, on_interrupt)
        try:
            return await run
        finally:
            signal.signal(signal.SIGINT, inner)
