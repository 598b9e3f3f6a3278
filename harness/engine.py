"""An inference engine's OpenAI-compatible server, started for one sweep point and stopped after it.

``frontier sweep --engine "COMMAND TEMPLATE"`` starts one server per configuration: the template is
split as a shell would (``shlex``; no shell runs it), ``{port}`` and ``{key}`` are replaced by the
port and the configuration's grid values, and the process is started in its own session (so that a
Ctrl-C on the terminal reaches the sweep, which stops it, and not the engine directly). It is ready
when ``/health`` answers 200, or, for a server without ``/health`` (404), ``/v1/models`` does; it has
``ready_timeout_s`` to get there. It is stopped with SIGTERM to its whole process group, then SIGKILL
after :data:`STOP_GRACE_S`; on Linux the kernel also kills it if the sweep itself is killed.
Its output goes to a log file, whose last line an error quotes.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Mapping
from pathlib import Path
from types import TracebackType

from harness.errors import ConfigError

STOP_GRACE_S = 10.0
"""Seconds an engine has to exit after SIGTERM before its process group is killed."""

POLL_INTERVAL_S = 0.2
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


class EngineError(ConfigError):
    """An engine that could not be started, exited, or never became ready (one line)."""


def template_keys(template: str) -> set[str]:
    """The placeholder names of ``template`` (``{port}`` included)."""
    return set(PLACEHOLDER.findall(template))


def engine_command(template: str, port: int, values: Mapping[str, str]) -> list[str]:
    """``template`` split into arguments with ``{port}`` and each ``{key}`` replaced (a missing key is an error)."""
    try:
        words = shlex.split(template)
    except ValueError as exc:
        raise ConfigError(f"--engine: cannot split the command ({exc})") from None
    if not words:
        raise ConfigError("--engine: the command is empty")
    if not any("{port}" in word for word in words):
        raise ConfigError("--engine: the command must listen on {port} (e.g. --port {port})")
    known = {"port": str(port), **values}

    def fill(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in known:
            raise ConfigError(f"--engine: placeholder {{{name}}} is neither {{port}} nor a --grid key")
        return known[name]

    return [PLACEHOLDER.sub(fill, word) for word in words]


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def port_is_free(port: int) -> bool:
    """True when nothing listens on 127.0.0.1:``port`` (a bind succeeds)."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def _die_with_parent() -> None:
    """In the child before exec: be killed when the sweep dies (Linux ``PR_SET_PDEATHSIG``)."""
    import ctypes

    ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)


def _status(url: str) -> int | None:
    """The HTTP status of GET ``url``, or None when nothing answers."""
    try:
        with urllib.request.urlopen(url, timeout=2.0) as response:
            return int(response.status)
    except urllib.error.HTTPError as exc:
        return int(exc.code)
    except (OSError, ValueError):
        return None


class Engine:
    """One engine server (see the module docstring); use it as a context manager."""

    def __init__(self, command: list[str], port: int, log_path: Path, label: str, ready_timeout_s: float) -> None:
        self.command = command
        self.port = port
        self.log_path = log_path
        self.label = label
        self.ready_timeout_s = ready_timeout_s
        self.process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> Engine:
        self.start()
        try:
            self.wait_ready()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.stop()

    def start(self) -> None:
        """Start the process, its output to :attr:`log_path`; refused while another process holds the port
        (its answers would pass for the engine's)."""
        if not port_is_free(self.port):
            raise EngineError(f"engine {self.label}: port {self.port} is in use by another process")
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("wb") as log:
            try:
                self.process = subprocess.Popen(
                    self.command,
                    stdin=subprocess.DEVNULL,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                    preexec_fn=_die_with_parent if sys.platform == "linux" else None,
                )
            except OSError as exc:
                raise EngineError(f"engine {self.label}: cannot start {self.command[0]!r} ({exc.strerror})") from None

    def wait_ready(self) -> None:
        """Return once the server answers (see the module docstring); an error if it exits or times out."""
        deadline = time.monotonic() + self.ready_timeout_s
        base = f"http://127.0.0.1:{self.port}"
        while True:
            code = self.process.poll() if self.process else None
            if code is not None:
                raise EngineError(f"engine {self.label}: exited with status {code} before it was ready{self._tail()}")
            health = _status(f"{base}/health")
            if health == 200 or (health == 404 and _status(f"{base}/v1/models") == 200):
                return
            if time.monotonic() >= deadline:
                raise EngineError(f"engine {self.label}: not ready after {self.ready_timeout_s:g} s{self._tail()}")
            time.sleep(POLL_INTERVAL_S)

    def stop(self, grace_s: float = STOP_GRACE_S) -> None:
        """SIGTERM to the engine's process group, SIGKILL after ``grace_s``; a stopped engine is left alone."""
        process = self.process
        if process is None:
            return
        self.process = None
        if process.poll() is None:
            self._signal_group(process.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(timeout=grace_s)
        self._signal_group(process.pid, signal.SIGKILL)  # what the engine itself started, too
        process.wait()

    @staticmethod
    def _signal_group(pid: int, signum: int) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signum)

    def _tail(self) -> str:
        """`` (log: PATH: last line)`` for an error message."""
        try:
            lines = self.log_path.read_bytes().decode("utf-8", "replace").strip().splitlines()
        except OSError:
            lines = []
        last = f": {lines[-1].strip()[:200]}" if lines else ""
        return f" (log: {self.log_path}{last})"
