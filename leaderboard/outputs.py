"""Writing the site's files, reusing the previous build's file wherever its bytes are the same.

A build writes a fresh folder that replaces the old site whole (:func:`leaderboard.site.build_site`),
so a rebuild creates every file anew and then deletes every old one; where the disk makes creating
and freeing files dear (a rebuild of an unchanged report spent a third of its CPU time there), a
file whose bytes equal the previous build's file at the same place is hard-linked from it instead:
reading the old file costs far less, and deleting the old site then frees nothing. Links are made
only to regular files inside the previous site; where one cannot be made, the file is written.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path

_SITES: ContextVar[tuple[Path, Path] | None] = ContextVar("leaderboard_output_sites", default=None)


@contextmanager
def reusing(staging: Path, previous: Path | None) -> Iterator[None]:
    """Within this block, :func:`write_output` into ``staging`` reuses the files of ``previous`` (the site
    being rebuilt; None or a missing folder: nothing to reuse), never one reached through a link out of it."""
    sites = (staging, previous.resolve()) if previous is not None and previous.is_dir() else None
    token = _SITES.set(sites)
    try:
        yield
    finally:
        _SITES.reset(token)


def write_output(path: Path, content: str | bytes) -> None:
    """Write ``content`` (text as UTF-8) to ``path``, or link the previous build's identical file there."""
    data = content.encode("utf-8") if isinstance(content, str) else content
    sites = _SITES.get()
    if sites is not None:
        if path.is_file():  # written before in this build (a page named twice): never write through a link
            path.unlink()
        if _link_unchanged(path, data, *sites):
            return
    path.write_bytes(data)


def _link_unchanged(path: Path, data: bytes, staging: Path, previous: Path) -> bool:
    """Hard-link the previous build's file for ``path`` when its bytes are ``data``; whether it was."""
    try:
        old = previous / path.relative_to(staging)
        status = old.lstat()
        if (
            not stat.S_ISREG(status.st_mode)
            or status.st_size != len(data)
            or not old.resolve().is_relative_to(previous)
        ):
            return False
        if old.read_bytes() != data:
            return False
        os.link(old, path, follow_symlinks=False)
    except (OSError, ValueError):
        return False
    return True
