"""``frontier data get``: download the public data sets that some task families need, into a local folder.

Each family's files come from its upstream repository (raw files over HTTPS, the same
files the benchmarks' authors publish) and are laid out where that family's ``-T data=``
accepts them. Every file is written atomically (a ``.part`` file renamed into place), so an
interrupted download never leaves a half-written file where a task would read it; files
already present are kept unless ``overwrite``. ``base_url`` replaces the default
``https://raw.githubusercontent.com`` (a mirror laid out as ``<owner>/<repo>/<ref>/<path>``,
or ``file://`` of such a folder).

The families declare what they need (``frontier.data`` entry points naming a :class:`DataSource`);
this module knows how to fetch, not what.
"""

from __future__ import annotations

import fnmatch
import logging
import os
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from harness.errors import ConfigError

log = logging.getLogger(__name__)

DEFAULT_BASE_URL = "https://raw.githubusercontent.com"
MAX_FILE_BYTES = 512 * 1024 * 1024
DATA_GROUP = "frontier.data"


@dataclass(frozen=True)
class DataSource:
    """One family's public data: where it is published, its licence, its files and how a task uses them.

    Families declare theirs under the ``frontier.data`` entry-point group. A source with
    ``files`` is fetched by ``frontier data get <family>``; one with ``bundled`` set has nothing to
    download (the text says where the data comes from); one with ``manual`` set is only a note
    for 'frontier list tasks' on how its tasks get their data.
    """

    family: str
    tasks: tuple[str, ...]  # globs of the task names that need it (fnmatch)
    repository: str = ""  # owner/name
    ref: str = "main"
    licence: str = ""
    files: tuple[tuple[str, str], ...] = ()  # (upstream path, local path under the family's folder)
    usage: str = ""  # how to point the tasks at the folder; {folder} is replaced
    aliases: tuple[str, ...] = ()
    bundled: str = ""
    manual: str = ""

    def url(self, base_url: str, upstream: str) -> str:
        """The address of one upstream file under ``base_url``."""
        return f"{base_url.rstrip('/')}/{self.repository}/{self.ref}/{upstream}"

    def needed_by(self, task: str) -> bool:
        """Whether ``task`` is one of the tasks this data is for."""
        return any(fnmatch.fnmatchcase(task, pattern) for pattern in self.tasks)


@cache
def sources() -> dict[str, DataSource]:
    """Every registered data source by family name; an entry that fails to load is skipped with a warning."""
    from harness.entry_point_files import load_declared

    return {source.family: source for _, source in load_declared(DATA_GROUP, DataSource, "data source", log)}


def families() -> list[str]:
    """The names ``frontier data get`` accepts."""
    return sorted(name for name, source in sources().items() if not source.manual)


def _source_named(name: str) -> DataSource | None:
    """The source called ``name`` or one of its aliases."""
    for source in sources().values():
        if name == source.family or name in source.aliases:
            return source
    return None


def data_note(task: str) -> str | None:
    """How ``task`` gets its external data, for 'frontier list tasks'; None when it needs none."""
    for source in sources().values():
        if source.needed_by(task) and source.files:
            return f"frontier data get {source.family}"
        if source.needed_by(task) and source.manual:
            return source.manual
    return None


def _fetch(url: str, target: Path, timeout_s: float) -> int:
    """Download ``url`` to ``target`` atomically; the number of bytes written."""
    import urllib.request  # here, not at the top: 'frontier list tasks' reads this module's notes only

    partial = target.with_name(target.name + ".part")
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        with urllib.request.urlopen(url, timeout=timeout_s) as response, partial.open("wb") as sink:
            size = 0
            while chunk := response.read(1 << 20):
                size += len(chunk)
                if size > MAX_FILE_BYTES:
                    raise ConfigError(f"{url} is larger than {MAX_FILE_BYTES:,} bytes; refusing it")
                sink.write(chunk)
            declared = response.headers.get("Content-Length")
        if declared is not None and declared.isdigit() and int(declared) != size:
            raise ConfigError(f"the download was cut short: {size:,} of {int(declared):,} bytes")
        if size == 0:
            raise ConfigError(f"{url} answered with an empty file")
        os.replace(partial, target)
        return size
    finally:
        partial.unlink(missing_ok=True)


def get_family(
    name: str,
    dest: Path,
    base_url: str = DEFAULT_BASE_URL,
    overwrite: bool = False,
    timeout_s: float = 60.0,
    report: Callable[[str], None] = print,
) -> Path:
    """Download family ``name``'s files into ``dest/<family>``; returns that folder.

    Raises ConfigError for an unknown family and, after trying every file, one naming each
    file that could not be fetched (what did arrive is kept).
    """
    import http.client

    source = _source_named(name)
    if source is None or source.manual:
        raise ConfigError(f"unknown data family {name!r}; known: {', '.join(families())}")
    key = source.family
    if source.bundled:
        report(f"{key}: nothing to download: {source.bundled}")
        return dest
    folder = dest / key
    failures: list[str] = []
    for upstream, local in source.files:
        target = folder / local
        if target.is_file() and not overwrite:
            report(f"{key}: {local} already there")
            continue
        url = source.url(base_url, upstream)
        try:
            size = _fetch(url, target, timeout_s)
        except (http.client.HTTPException, OSError, ConfigError) as exc:  # URLError is an OSError
            failures.append(f"{url}: {getattr(exc, 'reason', None) or exc}")
            continue
        report(f"{key}: {local} ({size:,} bytes)")
    if failures:
        raise ConfigError(
            f"{key}: {len(failures)} of {len(source.files)} file(s) could not be fetched "
            "(the others are kept):\n  " + "\n  ".join(failures)
        )
    report(
        f"{key}: {source.repository} ({source.licence}) in {folder}; tasks {source.tasks} use it with "
        + source.usage.format(folder=folder)
    )
    return folder
