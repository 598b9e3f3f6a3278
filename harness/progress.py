"""A rich progress bar for runs: samples done, ETA, tokens and cost so far."""

from __future__ import annotations

import sys
from typing import Any

from harness.types import SampleResult


class RunProgress:
    """Progress of a run on stderr; silent when disabled or when stderr is not a terminal."""

    def __init__(self, total: int, done: int = 0, enabled: bool = True) -> None:
        self.total = total
        self.done = done
        self.enabled = enabled and sys.stderr.isatty()
        self.tokens = 0
        self.cost = 0.0
        self.cost_unknown = False
        self.cost_seen = False
        self.outcomes = {"scored": 0, "unscored": 0, "error": 0}
        self._progress: Any = None
        self._task_id: Any = None

    def __enter__(self) -> RunProgress:
        if self.enabled:
            from rich.console import Console
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                                       TimeRemainingColumn)

            self._progress = Progress(
                TextColumn("[bold]samples"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                TextColumn("eta"), TimeRemainingColumn(), TextColumn("{task.fields[stats]}"),
                console=Console(stderr=True), transient=False,
            )
            self._progress.start()
            self._task_id = self._progress.add_task("run", total=self.total, completed=self.done, stats="")
        return self

    def advance(self, result: SampleResult) -> None:
        """Count one finished sample."""
        self.done += 1
        self.tokens += result.usage.total_tokens
        self.outcomes[result.score.outcome] += 1
        if result.cost_usd is not None:
            self.cost += result.cost_usd
            self.cost_seen = True
        self.cost_unknown = self.cost_unknown or not result.cost_known
        if self._progress is not None:
            cost = "cost unknown" if not self.cost_seen else f"${self.cost:.4f}" + ("+?" if self.cost_unknown else "")
            stats = f"{self.tokens:,} tok  {cost}  errors {self.outcomes['error']}"
            self._progress.update(self._task_id, advance=1, stats=stats)

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.stop()
