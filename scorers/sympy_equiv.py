"""Equivalence of two math answers with sympy, under a hard time limit.

Cheap checks run in process (normalised text, exact fractions). Anything that needs
sympy runs in a persistent worker process that is killed and restarted when a check
overruns its time limit, so expressions built to explode (``10^10^10``, deep nesting,
huge factorials) cost at most the limit and never hang or crash the caller. The worker
is safe to use from several threads (calls are serialised).
"""

from __future__ import annotations

import atexit
import json
import os
import re
import select
import subprocess
import sys
import threading
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from fractions import Fraction
from pathlib import Path
from typing import Literal

from scorers.math_text import normalize, to_plain
from scorers.sympy_worker import READY

Status = Literal["match", "mismatch", "unresolved"]
DEFAULT_TIMEOUT_S = 4.0
STARTUP_TIMEOUT_S = 120.0
PLAIN_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d{1,4})?$")
PLAIN_FRACTION = re.compile(r"^([+-]?\d{1,200})\s*/\s*([+-]?\d{1,200})$")


def _fraction(text: str) -> Fraction | None:
    """An exact rational for a plain integer, decimal or ``a/b``; None otherwise."""
    s = text.replace(" ", "")
    if len(s) > 400:
        return None
    if PLAIN_NUMBER.match(s):
        try:
            return Fraction(Decimal(s))
        except (InvalidOperation, ValueError):
            return None
    m = PLAIN_FRACTION.match(s)
    if m and int(m.group(2)) != 0:
        return Fraction(int(m.group(1)), int(m.group(2)))
    return None


def _decimals(text: str) -> int | None:
    """Number of decimals of a plain decimal literal such as ``4.309``; None for other forms."""
    s = text.strip()
    if PLAIN_NUMBER.match(s) and "." in s and "e" not in s.lower():
        return len(s.split(".", 1)[1])
    return None


def compare_fast(expected: str, predicted: str, round_to_expected: bool = True) -> Status | None:
    """Decide in process when the answers are equal as text or both plain rationals; else None.

    With ``round_to_expected``, a decimal prediction is rounded half-up to the expected
    decimal's places before comparing (``4.3090001`` matches ``4.309``); without, rationals
    compare exactly.
    """
    e, p = normalize(expected), normalize(predicted)
    if e == p or e.replace(" ", "") == p.replace(" ", ""):
        return "match"
    fe, fp = _fraction(e), _fraction(p)
    if fe is not None and fp is not None:
        places = _decimals(e)
        if round_to_expected and places is not None and _decimals(p) is not None:
            rounded = Decimal(fp.numerator) / Decimal(fp.denominator)
            quantum = Decimal(1).scaleb(-places)
            return "match" if rounded.quantize(quantum, rounding=ROUND_HALF_UP) == Decimal(e) else "mismatch"
        return "match" if fe == fp else "mismatch"
    return None


# ---------------------------------------------------------------- caller side


class SympyWorker:
    """A persistent ``python -m scorers.sympy_worker`` child; killed and restarted on overrun."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: subprocess.Popen[str] | None = None

    def _start(self) -> subprocess.Popen[str] | None:
        root = str(Path(__file__).resolve().parents[1])
        env = dict(os.environ)
        env["PYTHONPATH"] = root + os.pathsep + env.get("PYTHONPATH", "")
        self._process = subprocess.Popen(
            [sys.executable, "-m", "scorers.sympy_worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            env=env,
            cwd=root,
        )
        if not self._ready(self._process):
            self.stop()
        return self._process

    @staticmethod
    def _ready(process: subprocess.Popen[str]) -> bool:
        """Whether the fresh child said it is ready within STARTUP_TIMEOUT_S."""
        assert process.stdout is not None
        ready, _, _ = select.select([process.stdout], [], [], STARTUP_TIMEOUT_S)
        try:
            return bool(ready) and json.loads(process.stdout.readline() or "null") == READY
        except ValueError:
            return False

    def stop(self) -> None:
        """Kill the child process, if any."""
        process, self._process = self._process, None
        if process is not None:
            process.kill()
            process.wait(5)
            for stream in (process.stdin, process.stdout):
                if stream is not None:
                    stream.close()

    def compare(self, expected: str, predicted: str, timeout_s: float) -> Status:
        """The child's verdict, or ``unresolved`` when it overruns ``timeout_s`` or dies."""
        with self._lock:
            process = self._process if self._process is not None and self._process.poll() is None else self._start()
            if process is None:
                return "unresolved"
            assert process.stdin is not None and process.stdout is not None
            try:
                process.stdin.write(json.dumps([expected, predicted]) + "\n")
                process.stdin.flush()
                ready, _, _ = select.select([process.stdout], [], [], timeout_s)
                if ready:
                    line = process.stdout.readline()
                    status = json.loads(line) if line else None
                    if status in ("match", "mismatch", "unresolved"):
                        return status
            except (OSError, ValueError):
                pass
            self.stop()
            return "unresolved"


_WORKER = SympyWorker()
atexit.register(_WORKER.stop)


def compare(
    expected: str, predicted: str, timeout_s: float = DEFAULT_TIMEOUT_S, round_to_expected: bool = True
) -> Status:
    """Whether ``predicted`` equals ``expected`` as math: ``match``, ``mismatch`` or ``unresolved``.

    Text that is not a whitelisted expression (words, units, inequalities) only matches
    when equal after normalisation; otherwise it is ``unresolved``. The first call
    that needs sympy starts the worker (about a second). ``round_to_expected``: see
    :func:`compare_fast`.
    """
    fast = compare_fast(expected, predicted, round_to_expected)
    if fast is not None:
        return fast
    pe, pp = to_plain(expected), to_plain(predicted)
    if pe is None or pp is None:
        return "unresolved"
    if pe.replace(" ", "") == pp.replace(" ", ""):
        return "match"
    return _WORKER.compare(pe, pp, timeout_s)
