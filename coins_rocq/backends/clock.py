"""Limits that count the prover's CPU time, so that a verdict does not depend on the machine's load.

Three limits bound a check: Rocq's per-goal ``timeout`` inside the ladder, the limit on one
prover command, and the spec's budget. On a busy machine a prover gets a fraction of a
core, so wall-clock limits would turn decidable obligations undecided. Here all three count
the prover process's own CPU time:

- Rocq 8.16 implements ``timeout``/``Timeout`` with ``setitimer(ITIMER_REAL)``, ``getitimer``
  (nested timeouts save and restore the time left) and SIGALRM. The shim ``cputimer.c``,
  preloaded into every prover (``LD_PRELOAD``), answers those two calls from one POSIX timer on
  ``CLOCK_PROCESS_CPUTIME_ID`` that delivers SIGALRM: every Rocq timeout counts CPU seconds,
  with no change to the ladder. It is compiled with the machine's C compiler at first use
  and cached (``cpu_timer_library``).
- The command limit and the spec budget (``Budget``) count the prover's CPU time read from
  ``/proc/<pid>/stat``. Each also has a wall-clock backstop, ``BACKSTOP_FACTOR`` times the
  CPU limit, so that a prover starved of CPU (or blocked) still ends; reaching it is reported
  as a limit, never silently.

Where no C compiler is found (or ``/proc`` is missing) the limits fall back to wall-clock time,
and ``clock_kind`` says so (``"wall"``), as the JSON report does.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

BACKSTOP_FACTOR = 30.0
"""A CPU limit of ``t`` seconds also ends after ``BACKSTOP_FACTOR * t`` seconds of wall-clock time. It is
there for a prover that makes no progress at all (stopped, swapping), so it must stay far above the
slowdown of a busy machine: on the project's shared 2-core machine at a load average of 13, a
prover got about a tenth of a core, and a 10x backstop would have stopped it by the wall clock."""

CACHE_ENV = "FRONTIER_COINS_CACHE"
"""Where the compiled shim is cached (default: ``$XDG_CACHE_HOME/frontier-coins`` or ``~/.cache/frontier-coins``)."""

WALL_ENV = "FRONTIER_COINS_WALL_CLOCK"
"""Set to ``1`` to use wall-clock limits (no shim), as on a machine without a C compiler."""

_lock = threading.Lock()
_library: list[str | None] = []
_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def _cache_dir() -> Path:
    explicit = os.environ.get(CACHE_ENV)
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "frontier-coins"


def cpu_timer_library() -> str | None:
    """The path of the compiled CPU-time shim, compiling it on first use; None where it cannot be built.

    The library is cached under the source's hash; a failed build prints one line to stderr
    and the limits stay wall-clock for the rest of the process.
    """
    with _lock:
        if not _library:
            _library.append(None if os.environ.get(WALL_ENV) == "1" else _build())
        return _library[0]


def _build() -> str | None:
    """Compile ``cputimer.c`` into the cache (atomically); its path, or None with a note on stderr."""
    source = resources.files("coins_rocq.backends").joinpath("cputimer.c").read_bytes()
    digest = hashlib.sha256(source).hexdigest()[:16]
    target = _cache_dir() / f"cputimer-{digest}.so"
    if target.is_file():
        return _loadable(target)
    compiler = os.environ.get("CC") or shutil.which("cc") or shutil.which("gcc")
    if compiler is None or not os.path.exists("/proc/self/stat"):
        why = "no C compiler (cc)" if compiler is None else "no /proc"
        print(f"coins: {why}: prover time limits are wall-clock and depend on the machine's load", file=sys.stderr)
        return None
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(dir=target.parent) as tmp:
            src = Path(tmp) / "cputimer.c"
            src.write_bytes(source)
            built = Path(tmp) / target.name
            subprocess.run(
                [compiler, "-shared", "-fPIC", "-O2", "-o", str(built), str(src), "-ldl", "-lrt"],
                check=True,
                capture_output=True,
                timeout=120,
            )
            os.replace(built, target)
    except (OSError, subprocess.SubprocessError) as exc:
        print(f"coins: building the CPU-time shim failed ({exc}): prover time limits are wall-clock", file=sys.stderr)
        return None
    return _loadable(target)


def _loadable(library: Path) -> str | None:
    """``library``'s path when the dynamic loader preloads it cleanly (into ``true``), else None with a note."""
    probe = shutil.which("true") or "/bin/true"
    try:
        done = subprocess.run([probe], env={**os.environ, "LD_PRELOAD": str(library)}, capture_output=True, timeout=30)
        why = done.stderr.decode("utf-8", "replace").strip()[:200] or (
            f"exit {done.returncode}" if done.returncode else ""
        )
    except (OSError, subprocess.SubprocessError) as exc:
        why = str(exc)
    if why:
        print(f"coins: the CPU-time shim does not load ({why}): prover time limits are wall-clock", file=sys.stderr)
        return None
    return str(library)


def clock_kind() -> str:
    """``"cpu"`` when prover limits count CPU time (the shim is built), else ``"wall"``."""
    return "cpu" if cpu_timer_library() is not None else "wall"


def prover_env() -> dict[str, str]:
    """The environment of a prover process: this one's, with the CPU-time shim preloaded when built."""
    env = dict(os.environ)
    library = cpu_timer_library()
    if library is not None:
        env["LD_PRELOAD"] = f"{library} {env['LD_PRELOAD']}" if env.get("LD_PRELOAD") else library
    return env


def process_cpu_s(pid: int) -> float | None:
    """User plus system CPU seconds of process ``pid`` so far, from ``/proc``; None where unreadable."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii", errors="replace") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / _TICKS
    except (OSError, IndexError, ValueError):
        return None


class Meter:
    """Time spent by one process since the meter started: its CPU time, or wall time without the shim.

    ``limit_reached(cpu_s)`` tells whether a limit of ``cpu_s`` (CPU) or its wall-clock backstop
    is reached; ``why`` names which, once it is.
    """

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.cpu = clock_kind() == "cpu"
        self.wall_start = time.monotonic()
        self.cpu_start = process_cpu_s(pid) if self.cpu else None
        self.last = 0.0
        self.why = ""

    def then(self) -> Meter:
        """A meter of the same process from now on, starting at this one's last reading (no new one)."""
        meter = Meter.__new__(Meter)
        meter.pid, meter.cpu, meter.why = self.pid, self.cpu, ""
        meter.wall_start = time.monotonic()
        meter.cpu_start = None if self.cpu_start is None else self.cpu_start + self.last
        meter.last = 0.0
        return meter

    def spent(self) -> float:
        """Seconds counted so far (the last reading when the process is gone)."""
        if self.cpu_start is None:
            self.last = time.monotonic() - self.wall_start
        else:
            now = process_cpu_s(self.pid)
            if now is not None:
                self.last = now - self.cpu_start
        return self.last

    def limit_reached(self, limit_s: float) -> bool:
        """True (with ``why`` set) when ``limit_s`` counted seconds, or the wall-clock backstop, has passed."""
        if self.spent() >= limit_s:
            kind = "CPU" if self.cpu_start is not None else "wall-clock"
            self.why = f"its {limit_s:.1f} s {kind} limit"
            return True
        if self.cpu_start is not None and time.monotonic() - self.wall_start >= BACKSTOP_FACTOR * limit_s:
            self.why = f"the wall-clock backstop ({BACKSTOP_FACTOR:.0f} x its {limit_s:.1f} s CPU limit)"
            return True
        return False


@dataclass
class Budget:
    """A spec's time budget: seconds of its prover's CPU time (wall time without the shim).

    Backends ``charge`` it with what each prover command used; it also ends after
    ``BACKSTOP_FACTOR`` times its length in wall-clock time (``backstop``).
    """

    seconds: float
    used: float = 0.0
    wall_start: float = field(default_factory=time.monotonic)

    def charge(self, seconds: float) -> None:
        """Count ``seconds`` of prover time against the budget."""
        self.used += max(0.0, seconds)

    def left(self) -> float:
        """Counted seconds left (at most the wall-clock backstop's time left)."""
        return min(self.seconds - self.used, self.wall_left())

    def wall_left(self) -> float:
        """Wall-clock seconds left before the backstop."""
        factor = BACKSTOP_FACTOR if clock_kind() == "cpu" else 1.0
        return self.seconds * factor - (time.monotonic() - self.wall_start)

    def spent(self) -> bool:
        """True when the budget, or its wall-clock backstop, is used up."""
        return self.left() <= 0

    @property
    def backstop(self) -> bool:
        """True when the wall-clock backstop ended the budget before its counted seconds were used."""
        return self.wall_left() <= 0 and self.used < self.seconds
