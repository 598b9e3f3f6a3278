"""A run directory: ``config.json``, an append-only ``samples.jsonl`` and ``summary.json``.

What a run directory guarantees:

* **one writer**: a run, resume or rescore holds an exclusive lock (``fcntl.flock`` on
  ``.lock``) for its whole life; a second process is refused with the holder's PID;
* **exactly once**: lines are appended and flushed one ``SampleResult`` at a time, so a
  run killed at any point loses at most the line being written; that partial line is cut
  off when the run resumes, and logged samples are skipped. A sample logged twice (an
  error retried) counts once, by its last record (:mod:`harness.runlog`);
* **same data**: the config holds a digest of each task's loaded samples, and a resume
  whose samples differ is refused, naming the task;
* **crash-safe rewrites**: JSON files and a rescored log are written beside the old file
  under a unique name and swapped in with one rename; every log a rescore replaced is
  kept as ``samples.before-rescore.<n>.jsonl``;
* **versioned**: ``config.json`` and ``summary.json`` are written with the run format's version
  and read through :class:`harness.runformat.RunFiles`, which refuses a newer one.
"""

from __future__ import annotations

import contextlib
import functools
import json
import logging
import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import IO, Any

from harness.errors import ConfigError, FrontierError
from harness.run_lock import RunLock
from harness.runformat import CONFIG_FILE, HISTORY_PREFIX, SAMPLES_FILE, SUMMARY_FILE, VERSION_KEY, RunFiles, versioned
from harness.runlog import result_key, winning_lines
from harness.types import RunSummary, SampleResult, record_json

log = logging.getLogger(__name__)

LEGACY_HISTORY = f"{HISTORY_PREFIX}.jsonl"
STALE_TEMPORARIES = ("samples.rescore.tmp", f"{SUMMARY_FILE}.tmp", f"{CONFIG_FILE}.tmp")

__all__ = ["RunStore", "RunWriteError", "config_differences", "result_key", "write_json_atomic"]


class RunWriteError(FrontierError):
    """A file of a run directory could not be written (a full disk, say); what was logged is kept."""


def _write_failure(path: Path, exc: OSError) -> RunWriteError:
    return RunWriteError(
        f"could not write {path}: {exc.strerror or exc}; every sample logged before is kept "
        "- free the space, then rerun with --resume to continue"
    )


@functools.cache
def file_mode() -> int:
    """The mode ``open()`` gives a new file: 0o666 less the process umask (0o644 under umask 022).

    ``mkstemp`` creates its files 0600 whatever the umask; the run's files are set to this mode.
    """
    current = os.umask(0o022)
    os.umask(current)
    return 0o666 & ~current


def write_json_atomic(path: Path, data: Any) -> None:
    """Write JSON to ``path`` through a uniquely named temporary file beside it and a rename."""
    text = json.dumps(data, indent=2, sort_keys=False, allow_nan=False) + "\n"
    descriptor, name = tempfile.mkstemp(dir=path.parent, prefix=f"{path.name}.", suffix=".tmp")
    try:
        os.fchmod(descriptor, file_mode())
        with os.fdopen(descriptor, "w") as handle:
            handle.write(text)
        os.replace(name, path)
    except OSError as exc:
        Path(name).unlink(missing_ok=True)
        raise _write_failure(path, exc) from None


def config_differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """Top-level config keys whose values differ (ignoring provenance, and the sample digests checked apart)."""
    ignored = {"created_at", "harness_version", "config_hash", "samples", VERSION_KEY}
    keys = (set(old) | set(new)) - ignored
    return sorted(k for k in keys if old.get(k) != new.get(k))


def changed_samples(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """Tasks whose loaded samples (ids, inputs, targets) differ between two configs of one run."""
    before, after = old.get("samples"), new.get("samples")
    if not isinstance(before, dict) or not isinstance(after, dict):
        return []
    return sorted(task for task in after if task in before and before[task] != after[task])


def _fsync_directory(path: Path) -> None:
    descriptor = os.open(path, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


class LogRewrite:
    """The new log of :meth:`RunStore.rewriting`, written one result at a time."""

    def __init__(self, handle: IO[bytes], target: Path) -> None:
        self._handle = handle
        self.target = target
        self.history: Path | None = None
        """Where the replaced log is kept, once the new one is in place (None: there was none)."""

    def write(self, result: SampleResult) -> None:
        """Append ``result`` to the new log."""
        self._handle.write(record_json(result).encode() + b"\n")


class RunStore:
    """The files of one run directory."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.files = RunFiles(path)
        self.config_path = self.files.config_path
        self.samples_path = self.files.samples_path
        self.summary_path = self.files.summary_path
        self._handle: IO[bytes] | None = None
        self._lock: RunLock | None = None
        self._winners: tuple[tuple[int, int, int], set[int]] | None = None

    def read_config(self) -> dict[str, Any]:
        """The run's config; ConfigError when missing, unreadable or of a newer format (:class:`RunFiles`)."""
        return self.files.read_config()

    def read_summary(self) -> RunSummary:
        """The run's summary; ConfigError when missing, invalid or of a newer format (:class:`RunFiles`)."""
        return self.files.read_summary()

    def acquire(self) -> None:
        """Take the run directory's lock and repair what a killed run or rescore left behind.

        ConfigError naming the holder's PID when another process holds the lock.
        """
        if self._lock is not None:
            return
        self.path.mkdir(parents=True, exist_ok=True)
        self._lock = RunLock.take(self.path)
        try:
            self._recover_interrupted_rescore()
            self._remove_stale_temporaries()
        except BaseException:
            self.close()
            raise

    def open(self, config: dict[str, Any], retry_errors: bool = False) -> set[str]:
        """Lock, create or reopen the directory for ``config``; returns the keys of samples already done.

        A directory holding a run of another configuration, or of the same one over changed
        samples, is refused, untouched. With ``retry_errors``, samples whose last record is
        an ``error`` do not count as done (they run again; the old record stays as history).
        """
        self.acquire()
        try:
            return self._open_locked(config, retry_errors)
        except BaseException:
            self.close()
            raise

    def _open_locked(self, config: dict[str, Any], retry_errors: bool) -> set[str]:
        if self.config_path.exists():
            old = self.read_config()
            self._check_same_run(old, config)
        elif self.samples_path.exists() and self.samples_path.stat().st_size > 0:
            raise ConfigError(f"{self.path} has {SAMPLES_FILE} but no {CONFIG_FILE}; refusing to touch it")
        else:
            write_json_atomic(self.config_path, versioned(config))
        self._cut_partial_line()
        done = {
            result_key(r.task, r.sample_id)
            for r in self.files.results()
            if not (retry_errors and r.score.outcome == "error")
        }
        self._handle = self.samples_path.open("ab")
        return done

    def _check_same_run(self, old: dict[str, Any], config: dict[str, Any]) -> None:
        differing = config_differences(old, config)
        if differing:
            raise ConfigError(
                f"{self.path} holds a run with a different configuration (differs in: {', '.join(differing)}); "
                "use another --out, or rerun with the same settings to resume it"
            )
        changed = changed_samples(old, config)
        if changed:
            raise ConfigError(
                f"{self.path}: the samples of task {', '.join(changed)} changed since the run started (their ids, "
                "inputs or targets differ from those the logged results were scored against); resuming would "
                "score one run against two versions of the data. Restore the data, or use another --out"
            )

    def _recover_interrupted_rescore(self) -> None:
        """A rescore killed by an older harness between its two renames left no log: put the old one back."""
        legacy = self.path / LEGACY_HISTORY
        if self.samples_path.exists() or not legacy.is_file():
            return
        log.warning(
            "%s: a rescore was interrupted before its new log was in place; restoring the log it replaced from %s",
            self.path,
            legacy.name,
        )
        self._copy_into_place(legacy, self.samples_path)

    def _copy_into_place(self, source: Path, target: Path) -> None:
        descriptor, name = tempfile.mkstemp(dir=self.path, prefix=f"{target.name}.", suffix=".tmp")
        os.close(descriptor)
        try:
            shutil.copyfile(source, name)
            os.chmod(name, file_mode())
            os.replace(name, target)
        except OSError as exc:
            Path(name).unlink(missing_ok=True)
            raise _write_failure(target, exc) from None

    def _remove_stale_temporaries(self) -> None:
        """Temporary files left by a killed writer (only the lock holder writes, so all are stale)."""
        for name in STALE_TEMPORARIES:
            (self.path / name).unlink(missing_ok=True)
        for prefix in (SAMPLES_FILE, SUMMARY_FILE, CONFIG_FILE):
            for stale in self.path.glob(f"{prefix}.*.tmp"):
                stale.unlink(missing_ok=True)

    def _cut_partial_line(self) -> None:
        """Cut a torn last line off the log; a last line that parses only gets its missing newline."""
        if not self.samples_path.exists():
            return
        with self.samples_path.open("rb+") as handle:
            handle.seek(0, os.SEEK_END)
            size = handle.tell()
            if size == 0:
                return
            handle.seek(size - 1)
            if handle.read(1) == b"\n":
                return
            start = _last_line_start(handle, size)
            handle.seek(start)
            tail = handle.read()
            try:
                SampleResult.model_validate_json(tail)
            except (ValueError, RecursionError):
                handle.truncate(start)
                return
            handle.seek(0, os.SEEK_END)
            handle.write(b"\n")

    def append(self, result: SampleResult) -> None:
        """Append one result and flush it to the operating system; RunWriteError when the disk refuses."""
        assert self._handle is not None, "RunStore.open() first"
        try:
            self._handle.write(record_json(result).encode() + b"\n")
            self._handle.flush()
        except OSError as exc:
            raise _write_failure(self.samples_path, exc) from None

    def results(self) -> Iterator[SampleResult]:
        """Stream the logged results, each sample once (its last record wins).

        Which line wins is found once per version of the log (its size and modification
        time), so a summary that streams the log once per task reads each line's identity once.
        """
        if not self.samples_path.is_file():
            return iter(())
        stat = self.samples_path.stat()
        version = (stat.st_size, stat.st_mtime_ns, stat.st_ino)
        if self._winners is None or self._winners[0] != version:
            self._winners = (version, set(winning_lines(self.samples_path).values()))
        return self.files.results(self._winners[1])

    def logged_keys(self) -> set[str]:
        """The keys of every sample the log holds."""
        return set(winning_lines(self.samples_path))

    def rewrite_log(self, results: Iterable[SampleResult]) -> Path | None:
        """Replace ``samples.jsonl`` by ``results`` crash-safely; returns where the replaced log is kept.

        See :meth:`rewriting`, which this is with every result written at once.
        """
        with self.rewriting() as log:
            for result in results:
                log.write(result)
        return log.history

    @contextlib.contextmanager
    def rewriting(self) -> Iterator[LogRewrite]:
        """A new log, written result by result inside the block and swapped in when it ends without an error.

        The new log is written and synced beside the old one under a unique name; the old
        one is kept (hard-linked, else copied) as the next free ``samples.before-rescore.<n>.jsonl``
        (:attr:`LogRewrite.history`); one rename then swaps the new log in. An error inside the
        block leaves the old log in place and removes the new one. Killed at any moment, the
        directory holds either the old log or the new one as ``samples.jsonl``, never neither.
        """
        assert self._lock is not None, "RunStore.acquire() first"
        descriptor, name = tempfile.mkstemp(dir=self.path, prefix=f"{SAMPLES_FILE}.", suffix=".tmp")
        fresh = Path(name)
        try:
            os.fchmod(descriptor, file_mode())
            with os.fdopen(descriptor, "wb") as handle:
                rewrite = LogRewrite(handle, self.samples_path)
                yield rewrite
                handle.flush()
                os.fsync(handle.fileno())
            rewrite.history = self._keep_history()
            os.replace(fresh, self.samples_path)
            _fsync_directory(self.path)
        except OSError as exc:
            fresh.unlink(missing_ok=True)
            raise _write_failure(self.samples_path, exc) from None
        except BaseException:
            fresh.unlink(missing_ok=True)
            raise

    def _keep_history(self) -> Path | None:
        if not self.samples_path.exists():
            return None
        number = 1
        while (self.path / f"{HISTORY_PREFIX}.{number}.jsonl").exists():
            number += 1
        history = self.path / f"{HISTORY_PREFIX}.{number}.jsonl"
        try:
            os.link(self.samples_path, history)
        except OSError:
            self._copy_into_place(self.samples_path, history)
        return history

    def write_summary(self, summary: RunSummary) -> None:
        """Write ``summary.json`` atomically."""
        write_json_atomic(self.summary_path, versioned(summary.model_dump(mode="json")))

    def close_log(self) -> None:
        """Close the log, keeping the lock (to write the summary under it)."""
        if self._handle is not None:
            with contextlib.suppress(OSError):
                self._handle.close()
            self._handle = None

    def close(self) -> None:
        """Close the log and give up the lock."""
        self.close_log()
        if self._lock is not None:
            self._lock.release()
            self._lock = None


def _last_line_start(handle: IO[bytes], size: int) -> int:
    """Where the last line of a file with no final newline starts."""
    position = size
    while position > 0:
        step = min(65536, position)
        handle.seek(position - step)
        chunk = handle.read(step)
        newline = chunk.rfind(b"\n")
        if newline >= 0:
            return position - step + newline + 1
        position -= step
    return 0
