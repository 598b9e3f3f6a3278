"""One ``coqtop`` worker process and the protocol that matches each reply to its sentence.

A worker is one ``coqtop -emacs`` process with an address-space limit, started by a thread
that lives as long as the process so that it dies with its owner. It starts in a private
temporary directory that exists only while it starts: the directory is removed once the
first prompt is read, and the prover keeps it as its (deleted) working directory, where
nothing can be written. No way its owner ends (a pool process's ``os._exit``, SIGTERM,
``kill -9``) can then leave the directory behind.

Every sentence is followed by a marker query naming a random per-worker nonce (``Locate
coins_mark_<nonce>_<k>.``, which answers "No object of basename ..." without failing: a
failing command after one that changed the state costs Rocq a rollback, most of a
millisecond per sentence); a sentence's reply is the text up to its prompt, and it counts
only when exactly one prompt separates it from the reply to its own marker. Anything else (a
sentence that ran as two commands, a reply out of place, stray output) is a protocol
anomaly: the worker is killed.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
import selectors
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass

from coins_rocq.backends.base import LIMIT_REACHED, STOPPED_BY, Limits
from coins_rocq.backends.clock import Budget, Meter, prover_env
from coins_rocq.backends.spawn import spawn

PROMPT_END = "</prompt>"
_PROMPT = re.compile(r"<prompt>[^<]*? < \d+ \|([^<]*?)\| \d+ < </prompt>")
POLL_S = 0.05
"""How often a waiting worker's limits are checked (its CPU time read from ``/proc``)."""
STARTUP_S = 60.0
"""The limit on a worker's start (to its first prompt)."""
MARK = "coins_mark"
"""Defined right after the prelude; ``Reset coins_mark`` rewinds a worker to a clean prelude."""


class WorkerDied(RuntimeError):
    """The worker process ended or was killed (timeout, memory); ``replies`` are those read before."""

    def __init__(self, message: str, replies: Sequence[Reply] = ()) -> None:
        super().__init__(message)
        self.replies: list[Reply] = list(replies)


class ProtocolAnomaly(RuntimeError):
    """The prover's replies did not line up with the sentences sent; the worker was killed.

    ``replies`` are those that lined up before."""

    def __init__(self, message: str, replies: Sequence[Reply] = ()) -> None:
        super().__init__(message)
        self.replies: list[Reply] = list(replies)


@dataclass(frozen=True)
class Reply:
    """The prover's reply to one sentence and whether a proof was open after it."""

    text: str
    proof_open: bool

    @property
    def is_error(self) -> bool:
        """True when the reply reports an error."""
        return self.text.startswith("Error:") or "\nError:" in self.text

    def error_message(self) -> str:
        """The ``Error: ...`` part of the reply."""
        index = self.text.find("Error:")
        return self.text[index:].strip() if index >= 0 else self.text.strip()


class CoqtopWorker:
    """One ``coqtop`` process driven by batches of marked sentences."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.nonce = secrets.token_hex(8)
        self._count = 0
        self._buffer = b""
        self._pending = b""
        self.prelude: tuple[str, ...] | None = None
        with tempfile.TemporaryDirectory(prefix="coins-coqtop-") as workdir:
            self.proc = spawn(["coqtop", "-q", "-emacs"], cwd=workdir, memory_mb=limits.memory_mb, env=prover_env())
            self._selector = selectors.DefaultSelector()
            try:
                assert self.proc.stdout is not None and self.proc.stdin is not None
                os.set_blocking(self.proc.stdout.fileno(), False)
                os.set_blocking(self.proc.stdin.fileno(), False)
                self._selector.register(self.proc.stdout, selectors.EVENT_READ)
                self._read_until(lambda: self._buffer.find(PROMPT_END.encode()), [(Meter(self.proc.pid), STARTUP_S)])
            except BaseException:  # a start cut short (Ctrl-C included) leaves no process behind
                self.close()
                raise
        self._buffer = b""

    def run(
        self, sentences: Sequence[str], timeout_s: float, each_s: float | None = None, budget: Budget | None = None
    ) -> list[Reply]:
        """Send ``sentences`` (each with its marker) and return one reply each within ``timeout_s``.

        The limits count the worker's CPU time, each with its wall-clock backstop
        (``coins_rocq.backends.clock``). With ``each_s``, each reply must also come within
        ``each_s`` of the one before (a pipelined batch of attempts, each under the command
        limit). The time the batch used is charged to ``budget``. Raises ``WorkerDied``
        (after killing the process) on a limit or when the process ends, and
        ``ProtocolAnomaly`` (after killing it) when the replies do not line up; both carry
        the replies read before.
        """
        if self._buffer:
            self._anomaly(f"unexpected output before a command: {self._buffer[:120]!r}")
        marks = []
        payload = []
        for sentence in sentences:
            self._count += 1
            mark = f"{MARK}_{self.nonce}_{self._count}"
            marks.append(mark)
            payload.append(f"{sentence}\nLocate {mark}.\n")
        whole = Meter(self.proc.pid)
        self._pending = "".join(payload).encode("utf-8")
        replies: list[Reply] = []
        try:
            for mark in marks:
                limits = [(whole, timeout_s)]
                if each_s is not None:
                    limits.append((whole.then(), each_s))
                replies.append(self._reply_to(mark, limits))
        except (WorkerDied, ProtocolAnomaly) as exc:
            exc.replies = replies
            raise
        finally:
            if budget is not None:
                budget.charge(whole.spent())
        return replies

    def _reply_to(self, mark: str, limits: Sequence[tuple[Meter, float]]) -> Reply:
        """Read the reply to one sentence and to its marker; check that they line up."""
        echo = f"No object of basename {mark}\n".encode()

        def segment_end() -> int:
            at = self._buffer.find(echo)
            if at < 0:
                return -1
            end = self._buffer.find(PROMPT_END.encode(), at)
            return -1 if end < 0 else end + len(PROMPT_END)

        end = self._read_until(segment_end, limits)
        segment = self._buffer[:end].decode("utf-8", "replace")
        self._buffer = self._buffer[end:]
        prompts = list(_PROMPT.finditer(segment))
        marker_at = segment.find(echo.decode())
        if len(prompts) != 2 or segment.count(PROMPT_END) != 2 or prompts[0].end() > marker_at:
            self._anomaly(f"a sentence's reply did not line up with its marker: {segment[:200]!r}")
        if self.nonce in segment[: prompts[0].end()]:
            self._anomaly("a marker appeared inside a sentence's reply")
        return Reply(segment[: prompts[0].start()], bool(prompts[0].group(1).strip()))

    def _read_until(self, found: object, limits: Sequence[tuple[Meter, float]]) -> int:
        """Write pending input and read output until ``found()`` gives an index; returns it.

        Each ``(meter, seconds)`` in ``limits`` is checked every ``POLL_S`` at most; the first
        one reached kills the worker (``WorkerDied`` naming it)."""
        assert self.proc.stdout is not None and self.proc.stdin is not None
        checked = time.monotonic()
        while True:
            index = found()  # type: ignore[operator]
            if index >= 0:
                return index
            pending = self._pending
            if pending:
                try:
                    written = os.write(self.proc.stdin.fileno(), pending)
                except BlockingIOError:
                    written = 0
                except (BrokenPipeError, OSError):
                    self.close()
                    raise WorkerDied("prover process ended (memory limit or crash)") from None
                self._pending = pending[written:]
            reached = None
            if time.monotonic() - checked >= POLL_S:
                checked = time.monotonic()
                reached = next((meter for meter, seconds in limits if meter.limit_reached(seconds)), None)
            if reached is not None:
                self.close()
                raise WorkerDied(
                    f"{LIMIT_REACHED}: the prover command exceeded {reached.why} and was stopped{STOPPED_BY}"
                )
            if not self._selector.select(POLL_S):
                continue
            try:
                data = os.read(self.proc.stdout.fileno(), 1 << 16)
            except BlockingIOError:
                continue
            if not data:
                self.close()
                raise WorkerDied("prover process ended (memory limit or crash)")
            self._buffer += data

    def _anomaly(self, message: str) -> None:
        self.close()
        raise ProtocolAnomaly(f"prover protocol anomaly, worker replaced: {message}")

    def alive(self) -> bool:
        """True while the process runs."""
        return self.proc.poll() is None

    def close(self) -> None:
        """Kill the process and close its pipes."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        with contextlib.suppress(OSError, ValueError):
            self._selector.close()
