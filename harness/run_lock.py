"""The exclusive lock of a run directory: ``fcntl.flock`` on its ``.lock`` file, holding the owner's PID.

The kernel drops a ``flock`` when its holder exits, however it exits (kill -9 included),
so a lock is never left stale; the PID written in the file only names the holder in the
error a second process gets.
"""

from __future__ import annotations

import fcntl
import os
from pathlib import Path

from harness.errors import ConfigError
from harness.runformat import LOCK_FILE


class RunLocked(ConfigError):
    """Another process holds the run directory's lock."""


class RunLock:
    """A held lock on one run directory; :meth:`release` (or the process's exit) gives it up."""

    def __init__(self, path: Path, descriptor: int) -> None:
        self.path = path
        self._descriptor: int | None = descriptor

    @classmethod
    def take(cls, run_dir: Path) -> RunLock:
        """Lock ``run_dir`` without waiting; RunLocked naming the holder's PID when another process has it."""
        path = run_dir / LOCK_FILE
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(descriptor, 64, 0).decode("ascii", errors="replace").strip() or "unknown"
            os.close(descriptor)
            raise RunLocked(
                f"{run_dir} is in use by another frontier process (pid {holder}): a run, resume or "
                "rescore holds its lock; wait for it to finish, or use another --out"
            ) from None
        except BaseException:
            os.close(descriptor)
            raise
        os.ftruncate(descriptor, 0)
        os.pwrite(descriptor, f"{os.getpid()}\n".encode(), 0)
        return cls(path, descriptor)

    def release(self) -> None:
        """Give up the lock."""
        if self._descriptor is not None:
            os.close(self._descriptor)
            self._descriptor = None
