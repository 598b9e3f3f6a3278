"""The reference backend: one ``coqc`` run per file, one file per check.

The spec is first compiled on its own (the load check); then every attempt is a
fresh file holding the setup and one lemma, each sentence starting on its own line, so
an error's line number tells which sentence failed. Each run's time limit is cut to the
spec's remaining budget (loading included). Each run has a limit on its CPU time (with a
wall-clock backstop, ``coins_rocq.backends.clock``), an address-space limit and its own
temporary directory, removed afterwards; the Ladder's ``timeout`` counts CPU time too (the
preloaded shim).
"""

from __future__ import annotations

import bisect
import os
import re
import secrets
import shutil
import subprocess
import tempfile
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from coins_rocq.backends.base import (
    LIMIT_REACHED,
    STOPPED_BY,
    AttemptResult,
    JobResult,
    Limits,
    SpecJob,
    check_assumptions,
    classify_failure,
    command_timeout,
    limit_process,
)
from coins_rocq.backends.clock import Budget, Meter, prover_env
from coins_rocq.backends.decision import run_job
from coins_rocq.ladder import strip_rung_marks, winning_rung

_ERROR_LINE = re.compile(r'File "[^"]*", line (\d+)')
POLL_S = 0.05
"""How often a running ``coqc``'s CPU time is read."""


class CoqcSession:
    """Runs each attempt as its own ``coqc`` file in a private temporary directory."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.setup: list[str] = []
        self.setup_output = ""
        self.tmpdir = tempfile.mkdtemp(prefix="coins-coqc-")
        self.nonce = secrets.token_hex(8)
        self._count = 0

    def _compile(self, sentences: list[str], budget: Budget) -> tuple[int | None, str, str]:
        """Compile ``sentences``; returns (failing sentence index or None, error text, stdout)."""
        self._count += 1
        path = os.path.join(self.tmpdir, f"Check{self._count}.v")
        starts = []
        line = 1
        for sentence in sentences:
            starts.append(line)
            line += sentence.count("\n") + 1
        with open(path, "w", encoding="utf-8") as handle:
            handle.write("\n".join(sentences) + "\n")
        timeout_s = command_timeout(self.limits, budget)
        try:
            stopped, code = self._run_coqc(os.path.basename(path), timeout_s, budget)
            raw_out, raw_err = (Path(self.tmpdir, stream).read_bytes() for stream in ("out", "err"))
        finally:
            for leftover in os.listdir(self.tmpdir):
                os.unlink(os.path.join(self.tmpdir, leftover))
        if stopped:
            return -1, f"{LIMIT_REACHED}: the prover command exceeded {stopped} and was stopped{STOPPED_BY}", ""
        stdout = raw_out.decode("utf-8", "replace")
        stderr = raw_err.decode("utf-8", "replace")
        if code == 0:
            return None, "", stdout
        text = stderr + stdout
        index = text.find("Error:")
        message = text[index:].strip() if index >= 0 else (text.strip() or f"coqc exited with {code}")
        located = [m for m in _ERROR_LINE.finditer(text) if index < 0 or m.start() < index]
        if not located:
            return -1 if code < 0 else len(sentences) - 1, message, stdout
        return bisect.bisect_right(starts, int(located[-1].group(1))) - 1, message, stdout

    def _run_coqc(self, name: str, timeout_s: float, budget: Budget) -> tuple[str, int]:
        """Run ``coqc`` on ``name`` (output to files ``out`` and ``err``) under ``timeout_s`` of its CPU time.

        Returns (the limit that stopped it, or "", its exit code); its CPU time is charged to ``budget``.
        """
        with open(os.path.join(self.tmpdir, "out"), "wb") as out, open(os.path.join(self.tmpdir, "err"), "wb") as err:
            proc = subprocess.Popen(
                ["coqc", "-q", name],
                cwd=self.tmpdir,
                stdout=out,
                stderr=err,
                env=prover_env(),
                preexec_fn=lambda: limit_process(self.limits.memory_mb),
            )
        meter = Meter(proc.pid)
        try:
            while True:
                try:
                    return "", proc.wait(POLL_S)
                except subprocess.TimeoutExpired:
                    pass
                if meter.limit_reached(timeout_s):
                    proc.kill()
                    proc.wait()
                    return meter.why, -9
        finally:
            budget.charge(meter.spent())

    def load(self, prelude: tuple[str, ...], setup: list[str], budget: Budget) -> str | None:
        """Compile the prelude and setup alone; returns the error message or None."""
        self.setup = [*prelude, *setup]
        failed, message, stdout = self._compile(self.setup, budget)
        self.setup_output = stdout
        return None if failed is None else message

    def attempt(self, name: str, sentences: list[str], budget: Budget) -> AttemptResult:
        """Compile setup plus the attempt and judge which sentence failed.

        The audit reads only the attempt's own ``Print Assumptions``: the output must be the
        setup's own output, then that command's reply, then the nonce marker printed after it.
        """
        marker = f"coins_audit_{self.nonce}_{self._count}"
        audit = [f"Definition {marker} := tt.", f"Print {marker}."]
        failed, message, stdout = self._compile(self.setup + sentences + audit, budget)
        if failed is None:
            end = stdout.find(f"{marker} = tt")
            if not stdout.startswith(self.setup_output) or end < 0:
                return AttemptResult("error", "prover output did not line up with the attempt")
            own = stdout[len(self.setup_output) : end]
            axioms = check_assumptions(strip_rung_marks(own))
            rung = winning_rung(own) if axioms.status == "proved" else None
            return AttemptResult(axioms.status, axioms.message, rung)
        if failed == -1:
            return AttemptResult("timeout", message)
        offset = failed - len(self.setup)
        if offset < 0:
            return AttemptResult("error", f"setup failed: {message}")
        if offset > 0:
            return AttemptResult("error", f"audit failed: {message}")
        return AttemptResult(classify_failure(message), message)

    def attempt_many(self, attempts: Sequence[tuple[str, list[str]]], budget: Budget) -> list[AttemptResult]:
        """Each attempt in its own file, one after the other."""
        return [self.attempt(name, sentences, budget) for name, sentences in attempts]

    def audit(self, names: Sequence[str], budget: Budget) -> list[AttemptResult]:
        """Every proof ``attempt`` reported proved was audited in its own file already."""
        return [AttemptResult("proved") for _ in names]

    def close(self) -> None:
        """Remove the temporary directory."""
        shutil.rmtree(self.tmpdir, ignore_errors=True)


class CoqcBackend:
    """One ``coqc`` process per check; jobs run in parallel on ``workers`` threads."""

    name = "coqc"

    def __init__(self, workers: int | None = None) -> None:
        self.size = max(1, workers or os.cpu_count() or 1)

    def run(self, jobs: Sequence[SpecJob]) -> list[JobResult]:
        """Run ``jobs``; results come back in the jobs' order."""

        def one(job: SpecJob) -> JobResult:
            session = CoqcSession(job.limits)
            try:
                return run_job(job, session)
            finally:
                session.close()

        with ThreadPoolExecutor(max_workers=self.size) as executor:
            return list(executor.map(one, jobs))

    def close(self) -> None:
        """Nothing to release between runs."""

    def __enter__(self) -> CoqcBackend:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
