"""Start long-lived prover processes that die with their owner.

``PR_SET_PDEATHSIG`` fires when the *thread* that forked a child ends, so a persistent
worker must not be started from a short-lived thread (a pool's job thread). ``spawn``
hands the ``Popen`` call to one daemon thread that lives as long as the process: when
the process dies, for any reason, the kernel kills every worker it started.
"""

from __future__ import annotations

import functools
import queue
import subprocess
import threading
from collections.abc import Mapping, Sequence
from concurrent.futures import Future

from coins_rocq.backends.base import limit_process

_Request = tuple[Sequence[str], str, int, Mapping[str, str] | None, Future[subprocess.Popen[bytes]]]
_requests: queue.Queue[_Request] = queue.Queue()
_lock = threading.Lock()
_thread: threading.Thread | None = None


def _serve() -> None:
    while True:
        args, cwd, memory_mb, env, future = _requests.get()
        try:
            future.set_result(
                subprocess.Popen(
                    list(args),
                    cwd=cwd,
                    env=env,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT,
                    preexec_fn=functools.partial(limit_process, memory_mb),
                )
            )
        except BaseException as exc:
            future.set_exception(exc)


def spawn(
    args: Sequence[str], cwd: str, memory_mb: int, env: Mapping[str, str] | None = None
) -> subprocess.Popen[bytes]:
    """Start ``args`` in ``cwd`` (in ``env``, default this process's) with piped stdin and merged
    stdout/stderr, under ``limit_process``."""
    global _thread
    with _lock:
        if _thread is None or not _thread.is_alive():
            _thread = threading.Thread(target=_serve, name="coins-spawner", daemon=True)
            _thread.start()
    future: Future[subprocess.Popen[bytes]] = Future()
    _requests.put((args, cwd, memory_mb, env, future))
    return future.result()
