"""Progress of a run on stderr: a rich bar on a terminal, a plain line at a steady interval elsewhere.

Under ``nohup``, CI or a log file a bar would print nothing useful, so a plain line
(samples done, rate, ETA, errors, tokens) is written every ``interval_s`` seconds
(``$FRONTIER_PROGRESS_INTERVAL``, default 30), from a timer, so that it appears even
while no sample finishes. A rerun with nothing left to do says so.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from typing import Any, TextIO

from harness.types import SampleResult

INTERVAL_ENV = "FRONTIER_PROGRESS_INTERVAL"
DEFAULT_INTERVAL_S = 30.0


def progress_interval() -> float:
    """Seconds between plain progress lines: ``$FRONTIER_PROGRESS_INTERVAL`` if it is a positive number, else 30."""
    try:
        value = float(os.environ.get(INTERVAL_ENV, ""))
    except ValueError:
        return DEFAULT_INTERVAL_S
    return value if value > 0 else DEFAULT_INTERVAL_S


def _duration(seconds: float) -> str:
    seconds = round(seconds)
    hours, rest = divmod(seconds, 3600)
    return f"{hours}:{rest // 60:02d}:{rest % 60:02d}" if hours else f"{rest // 60}:{rest % 60:02d}"


class RunProgress:
    """Progress of a run on ``stream`` (stderr): a bar on a terminal, plain timed lines otherwise."""

    def __init__(
        self,
        total: int,
        done: int = 0,
        enabled: bool = True,
        interval_s: float | None = None,
        stream: TextIO | None = None,
    ) -> None:
        self.total = total
        self.done = done
        self.skipped = done
        self.stream = stream or sys.stderr
        terminal = self.stream.isatty()
        self.enabled = enabled and terminal
        self.plain = enabled and not terminal and done < total
        self.interval_s = interval_s if interval_s is not None else progress_interval()
        self.tokens = 0
        self.cost = 0.0
        self.cost_unknown = False
        self.cost_seen = False
        self.outcomes = {"scored": 0, "unscored": 0, "error": 0}
        self._progress: Any = None
        self._task_id: Any = None
        self._started = time.monotonic()
        self._stop = threading.Event()
        self._timer: threading.Thread | None = None
        self._lock = threading.Lock()

    def __enter__(self) -> RunProgress:
        self._started = time.monotonic()
        if self.total and self.done >= self.total:
            self._write(
                f"all {self.total} samples already logged; nothing to run (--retry-errors reruns the errored ones)"
            )
        if self.enabled:
            self._start_bar()
        elif self.plain:
            self._write(
                f"progress: {self.total - self.done} sample(s) to run"
                + (f", {self.skipped} already logged" if self.skipped else "")
            )
            self._timer = threading.Thread(target=self._tick, name="run-progress", daemon=True)
            self._timer.start()
        return self

    def _start_bar(self) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        self._progress = Progress(
            TextColumn("[bold]samples"),
            BarColumn(),
            MofNCompleteColumn(),
            TimeElapsedColumn(),
            TextColumn("eta"),
            TimeRemainingColumn(),
            TextColumn("{task.fields[stats]}"),
            console=Console(file=self.stream),
            transient=False,
        )
        self._progress.start()
        self._task_id = self._progress.add_task("run", total=self.total, completed=self.done, stats="")

    def _write(self, line: str) -> None:
        try:
            self.stream.write(line + "\n")
            self.stream.flush()
        except (OSError, ValueError):
            pass  # a closed or broken stderr must not stop the run

    def _tick(self) -> None:
        while not self._stop.wait(self.interval_s):
            self._write(self.plain_line())

    def _cost_text(self) -> str:
        if not self.cost_seen:
            return "cost unknown"
        return f"${self.cost:.4f}" + ("+?" if self.cost_unknown else "")

    def plain_line(self) -> str:
        """One line: samples done of total, rate, ETA, errors, tokens, cost and time elapsed."""
        with self._lock:
            done, tokens, errors = self.done, self.tokens, self.outcomes["error"]
        elapsed = time.monotonic() - self._started
        finished_here = done - self.skipped
        rate = finished_here / elapsed * 60 if elapsed > 0 else 0.0
        remaining = self.total - done
        eta = _duration(remaining / (rate / 60)) if rate > 0 else "unknown"
        percent = 100 * done / self.total if self.total else 100.0
        return (
            f"progress: {done}/{self.total} samples ({percent:.0f}%)  {rate:.2f}/min  eta {eta}  "
            f"errors {errors}  tokens {tokens:,}  {self._cost_text()}  elapsed {_duration(elapsed)}"
        )

    def advance(self, result: SampleResult) -> None:
        """Count one finished sample."""
        with self._lock:
            self.done += 1
            self.tokens += result.usage.total_tokens
            self.outcomes[result.score.outcome] += 1
            if result.cost_usd is not None:
                self.cost += result.cost_usd
                self.cost_seen = True
            self.cost_unknown = self.cost_unknown or not result.cost_known
        if self._progress is not None:
            stats = f"{self.tokens:,} tok  {self._cost_text()}  errors {self.outcomes['error']}"
            self._progress.update(self._task_id, advance=1, stats=stats)

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.stop()
        if self._timer is not None:
            self._stop.set()
            self._timer.join(timeout=5)
            self._write(self.plain_line())
