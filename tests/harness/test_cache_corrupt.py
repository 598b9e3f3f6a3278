"""Issue 37.6: a corrupt ``responses.sqlite`` is one line naming the file and the ways out (``--no-cache``,
or deleting it), whether it is unreadable from its first page or only deeper in."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from harness.cache import CacheError, ResponseCache
from harness.cli.main import main
from harness.types import Generation


def _frontier(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    try:
        main(list(args))
        status = 0
    except SystemExit as exc:
        status = int(exc.code or 0)
    captured = capsys.readouterr()
    assert "Traceback" not in captured.out + captured.err
    return status, captured.err


def test_a_file_that_is_not_a_database_fails_the_run_in_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = tmp_path / "cache" / "responses.sqlite"
    cache.parent.mkdir()
    cache.write_bytes(b"not a database at all\n" * 400)
    monkeypatch.setenv("FRONTIER_CACHE_DIR", str(cache.parent))
    run = ["run", "--task", "demo/arith", "--model", "builtin/oracle", "--limit", "2", "--no-progress"]
    status, err = _frontier(capsys, *run, "--out", str(tmp_path / "a"))
    assert status == 2 and len(err.strip().splitlines()) == 1
    assert str(cache) in err and "--no-cache" in err and "delete" in err
    status, err = _frontier(capsys, *run, "--no-cache", "--out", str(tmp_path / "b"))
    assert status == 0, err


def test_a_database_corrupt_past_its_first_page_is_the_same_error(tmp_path: Path) -> None:
    path = tmp_path / "responses.sqlite"
    cache = ResponseCache(path)
    for index in range(400):
        cache.put("m", f"key{index}", Generation(text="answer " * 50))
    cache.close()
    with sqlite3.connect(path) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    data = bytearray(path.read_bytes())
    page = 4096
    data[page * 2 : len(data)] = b"\xff" * (len(data) - page * 2)
    path.write_bytes(bytes(data))
    with pytest.raises(CacheError, match=rf"response cache {path} cannot be used .*--no-cache, or delete"):
        reopened = ResponseCache(path)
        for index in range(400):
            reopened.get("m", f"key{index}")
