"""Pool workers that die with the process that started them.

A worker of a ``forkserver`` pool is the fork server's child, not the run's, so a run
killed with ``kill -9`` would leave its workers (and through them the fork server, the
resource tracker and any prover a worker started) re-parented to init for ever. Each
worker therefore watches the run's process: :func:`watch_parent`, the pool's initializer,
starts a daemon thread that blocks on a ``pidfd`` of the run (Linux 5.3+; elsewhere it
polls the PID once a second) and, the moment the run is gone, kills the worker's own
descendants and exits. With every worker gone the fork server and the resource tracker
see their pipes close and exit too.
"""

from __future__ import annotations

import contextlib
import os
import select
import signal
import threading
import time
from pathlib import Path

POLL_S = 1.0


def _children_by_parent() -> dict[int, list[int]]:
    tree: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2 :].split()
        if len(fields) > 1 and fields[1].isdigit():
            tree.setdefault(int(fields[1]), []).append(int(entry.name))
    return tree


def descendants(pid: int) -> list[int]:
    """Every live descendant of ``pid`` (children first), read from ``/proc``; empty where there is none."""
    if not Path("/proc").is_dir():
        return []
    tree = _children_by_parent()
    found, frontier = [], [pid]
    while frontier:
        children = tree.get(frontier.pop(), [])
        found.extend(children)
        frontier.extend(children)
    return found


def _end_worker() -> None:
    for pid in descendants(os.getpid()):
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    os._exit(1)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _wait_for_exit(pid: int) -> None:
    """Return once process ``pid`` has exited."""
    try:
        descriptor = os.pidfd_open(pid)
    except ProcessLookupError:
        return
    except (AttributeError, OSError):
        while _alive(pid):
            time.sleep(POLL_S)
        return
    try:
        select.select([descriptor], [], [])
    finally:
        os.close(descriptor)


def watch_parent(pid: int) -> None:
    """Pool initializer: end this worker, and every process it started, as soon as process ``pid`` exits."""
    if not _alive(pid):
        _end_worker()

    def watch() -> None:
        _wait_for_exit(pid)
        _end_worker()

    threading.Thread(target=watch, name=f"watch-parent-{pid}", daemon=True).start()
