"""How ``frontier sweep`` runs its points: one at a time, each in its own engine when it has one."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from harness.run_options import RunOptions

if TYPE_CHECKING:
    from harness.cli.sweep_points import SweepPoint
    from harness.engine import Engine
    from harness.types import RunSummary


class PointRunner:
    """Runs sweep points one after another, each in its engine when it has one, stopping cleanly on Ctrl-C.

    SIGTERM stops the sweep as Ctrl-C does. A run that takes more than the stop bound to stop
    (:class:`~harness.cli.stop_bound.StopBound`) is abandoned: its engine is killed and the process ends.
    """

    def __init__(self, options: RunOptions, port: int, ready_timeout_s: float, logs: Path) -> None:
        self.options = options
        self.port = port
        self.ready_timeout_s = ready_timeout_s
        self.logs = logs
        self.engine: Engine | None = None
        self.terminated = False

    def run(self, point: SweepPoint) -> RunSummary:
        """Execute ``point``'s plan into its run directory (in its engine); EngineError when the engine fails."""
        from harness.cli.stop_bound import StopBound
        from harness.engine import Engine
        from harness.runner import execute

        with StopBound(self._end_stuck) as bound:
            if not point.engine:
                return asyncio.run(bound.guard(execute(point.plan, point.run_dir, self.options)))
            log = self.logs / f"{point.run_dir.name}.log"
            self.engine = Engine(point.engine, self.port, log, point.label, self.ready_timeout_s)
            try:
                with self.engine:
                    return asyncio.run(bound.guard(execute(point.plan, point.run_dir, self.options)))
            finally:
                self.engine = None

    def on_sigterm(self, _signum: int, _frame: object) -> None:
        """SIGTERM: stop as Ctrl-C does."""
        self.terminated = True
        signal.raise_signal(signal.SIGINT)

    def _end_stuck(self) -> None:
        """The run did not stop within the bound (or a second Ctrl-C came): kill its engine and end now."""
        if self.engine is not None:
            self.engine.stop(grace_s=1.0)
        click.echo("sweep still stopping after Ctrl-C: ended now; rerun the same command to resume", err=True)
        sys.stderr.flush()
        os._exit(143 if self.terminated else 130)
