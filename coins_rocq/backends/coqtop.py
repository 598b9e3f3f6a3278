"""The persistent backend: a pool of ``coqtop`` workers, one per core.

A worker is one ``coqtop -emacs`` process in its own temporary directory, with an
address-space limit. Sentences go in one at a time; the reply to a sentence is the
text up to the next ``<prompt>``. A job starts with ``Reset Initial``, loads the spec
once and then runs its obligations one after another. A command that outlives
``command_timeout_s`` gets its worker killed and replaced.
"""

from __future__ import annotations

import os
import queue
import selectors
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Sequence

from coins_rocq.backends.base import (
    AttemptResult,
    JobResult,
    Limits,
    SpecJob,
    check_assumptions,
    classify_failure,
    limit_process,
    run_job,
)

PROMPT_END = "</prompt>"
MARK = "coins_mark"
"""Defined right after the prelude; ``Reset coins_mark`` rewinds a worker to a clean prelude."""


class WorkerDied(RuntimeError):
    """The worker process ended or was killed (timeout, memory)."""


class CoqtopWorker:
    """One ``coqtop`` process driven sentence by sentence."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.tmpdir = tempfile.mkdtemp(prefix="coins-coqtop-")
        self.proc = subprocess.Popen(
            ["coqtop", "-q", "-emacs"], cwd=self.tmpdir, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, preexec_fn=lambda: limit_process(limits.memory_mb),
        )
        self._buffer = b""
        self.prelude: tuple[str, ...] | None = None
        self._selector = selectors.DefaultSelector()
        assert self.proc.stdout is not None
        os.set_blocking(self.proc.stdout.fileno(), False)
        self._selector.register(self.proc.stdout, selectors.EVENT_READ)
        self._read_reply(60.0)

    def send(self, sentence: str, timeout_s: float | None = None) -> str:
        """Send one sentence and return the reply within ``timeout_s`` (default: the worker's limit).

        Raises ``WorkerDied`` (after killing the process) on a timeout or when the process ends.
        """
        assert self.proc.stdin is not None
        try:
            self.proc.stdin.write(sentence.encode("utf-8") + b"\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise WorkerDied("worker exited") from None
        return self._read_reply(timeout_s if timeout_s is not None else self.limits.command_timeout_s)

    def _read_reply(self, timeout_s: float) -> str:
        deadline = time.monotonic() + timeout_s
        assert self.proc.stdout is not None
        while True:
            end = self._buffer.find(PROMPT_END.encode())
            if end >= 0:
                chunk, self._buffer = self._buffer[: end + len(PROMPT_END)], self._buffer[end + len(PROMPT_END):]
                text = chunk.decode("utf-8", "replace")
                return text[: text.rfind("<prompt>")]
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                self.close()
                raise WorkerDied(f"prover command exceeded {timeout_s:.0f} s and was stopped")
            if not self._selector.select(remaining):
                continue
            data = os.read(self.proc.stdout.fileno(), 65536)
            if not data:
                self.close()
                raise WorkerDied("prover process ended (memory limit or crash)")
            self._buffer += data

    def alive(self) -> bool:
        """True while the process runs."""
        return self.proc.poll() is None

    def close(self) -> None:
        """Kill the process and remove its temporary directory."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass
        self._selector.close()
        shutil.rmtree(self.tmpdir, ignore_errors=True)


def is_error(reply: str) -> bool:
    """True when the reply reports an error."""
    return "\nError:" in reply or reply.startswith("Error:") or "Toplevel input" in reply and "Error" in reply


def error_message(reply: str) -> str:
    """The ``Error: ...`` part of a reply."""
    index = reply.find("Error:")
    return reply[index:].strip() if index >= 0 else reply.strip()


class CoqtopSession:
    """A job's session on a worker; replaces the worker after it dies."""

    def __init__(self, pool_slot: _Slot, limits: Limits) -> None:
        self.slot = pool_slot
        self.limits = limits
        self.prelude: tuple[str, ...] = ()
        self.setup: list[str] = []

    def load(self, prelude: tuple[str, ...], setup: list[str]) -> str | None:
        """Rewind the worker to its prelude (loading it if it differs) and load the spec."""
        self.prelude, self.setup = prelude, setup
        try:
            return self._load()
        except WorkerDied as exc:
            return f"loading the spec failed: {exc}"

    def _worker(self) -> _Bound:
        return _Bound(self.slot.worker(self.limits), self.limits.command_timeout_s)

    def _load(self) -> str | None:
        worker = self._worker()
        if worker.prelude == self.prelude:
            worker.send(f"Reset {MARK}.")
        else:
            if worker.prelude is not None:
                worker.send("Reset Initial.")
            worker.prelude = None
            for sentence in self.prelude:
                reply = worker.send(sentence)
                if is_error(reply):
                    return error_message(reply)
            worker.prelude = self.prelude
        worker.send(f"Definition {MARK} := tt.")
        for sentence in self.setup:
            reply = worker.send(sentence)
            if is_error(reply):
                return error_message(reply)
        return None

    def attempt(self, name: str, sentences: list[str]) -> AttemptResult:
        """Run one attempt; on a killed worker restart it, reload the spec and report a timeout."""
        try:
            return self._attempt(sentences)
        except WorkerDied as exc:
            try:
                self._load()
            except WorkerDied:
                pass
            return AttemptResult("timeout", str(exc))

    def _attempt(self, sentences: list[str]) -> AttemptResult:
        worker = self._worker()
        lemma, proof, ladder, qed, print_assumptions = sentences
        reply = worker.send(lemma)
        if is_error(reply):
            return AttemptResult("error", error_message(reply))
        worker.send(proof)
        reply = worker.send(ladder)
        if is_error(reply):
            worker.send("Abort.")
            message = error_message(reply)
            return AttemptResult(classify_failure(message), message)
        reply = worker.send(qed)
        if is_error(reply):
            worker.send("Abort.")
            return AttemptResult("failed", error_message(reply))
        return check_assumptions(worker.send(print_assumptions))


class _Bound:
    """A worker whose every command runs under one job's wall-clock limit."""

    def __init__(self, worker: CoqtopWorker, timeout_s: float) -> None:
        self.worker = worker
        self.timeout_s = timeout_s

    @property
    def prelude(self) -> tuple[str, ...] | None:
        return self.worker.prelude

    @prelude.setter
    def prelude(self, value: tuple[str, ...] | None) -> None:
        self.worker.prelude = value

    def send(self, sentence: str) -> str:
        return self.worker.send(sentence, self.timeout_s)


class _Slot:
    """Holds one worker, starting a fresh one when the last has died."""

    def __init__(self) -> None:
        self._worker: CoqtopWorker | None = None

    def worker(self, limits: Limits) -> CoqtopWorker:
        if self._worker is None or not self._worker.alive():
            if self._worker is not None:
                self._worker.close()
            self._worker = CoqtopWorker(limits)
        return self._worker

    def close(self) -> None:
        if self._worker is not None:
            self._worker.close()
            self._worker = None


class CoqtopPool:
    """A pool of persistent ``coqtop`` workers (default: one per core); use as a context manager.

    ``run`` may be called from several threads at once: each job takes a free worker.
    """

    name = "pool"

    def __init__(self, workers: int | None = None) -> None:
        self.size = max(1, workers or os.cpu_count() or 1)
        self._slots = [_Slot() for _ in range(self.size)]
        self._free: queue.Queue[_Slot] = queue.Queue()
        for slot in self._slots:
            self._free.put(slot)

    def run(self, jobs: Sequence[SpecJob]) -> list[JobResult]:
        """Run ``jobs`` across the free workers; results come back in the jobs' order."""
        todo: queue.Queue[int] = queue.Queue()
        for index in range(len(jobs)):
            todo.put(index)
        results: list[JobResult | None] = [None] * len(jobs)
        errors: list[BaseException] = []

        def work() -> None:
            slot = self._free.get()
            try:
                while True:
                    try:
                        index = todo.get_nowait()
                    except queue.Empty:
                        return
                    results[index] = run_job(jobs[index], CoqtopSession(slot, jobs[index].limits))
            except BaseException as exc:  # noqa: BLE001 - re-raised in the caller's thread
                errors.append(exc)
            finally:
                self._free.put(slot)

        threads = [threading.Thread(target=work, daemon=True) for _ in range(max(1, min(self.size, len(jobs))))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        if errors:
            raise errors[0]
        return [r if r is not None else JobResult(load_error="not run") for r in results]

    def close(self) -> None:
        """Stop every worker and remove their temporary directories."""
        for slot in self._slots:
            slot.close()

    def __enter__(self) -> CoqtopPool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
