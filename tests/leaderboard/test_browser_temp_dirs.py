"""The test browser leaves nothing in the temporary directory, however chromium ends.

Chromium ended by a signal leaves the ``org.chromium.Chromium.*`` directory of its singleton socket in
its TMPDIR; the browser points that TMPDIR into the one directory it owns, with the profile. Each test
counts the entries of its own TMPDIR (empty before), undisturbed by other processes on the machine.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from leaderboard_cdp import Browser, chromium_available

pytestmark = [
    pytest.mark.skipif(not chromium_available(), reason="chromium is not installed"),
    pytest.mark.timeout(120),
]


@pytest.fixture
def private_tmpdir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty TMPDIR of this test's own (a short path: chromium's socket path must fit 107 bytes)."""
    tmpdir = tmp_path_factory.mktemp("tmp")
    monkeypatch.setenv("TMPDIR", str(tmpdir))
    monkeypatch.setattr(tempfile, "tempdir", str(tmpdir))
    return tmpdir


async def test_a_session_keeps_chromium_inside_its_directory_and_removes_it(private_tmpdir: Path) -> None:
    async with Browser() as page:
        await page.load("about:blank")
        (home,) = os.listdir(private_tmpdir)
        assert home.startswith("lb-chromium-")
        assert any(name.startswith("org.chromium.Chromium.") for name in os.listdir(private_tmpdir / home))
    assert os.listdir(private_tmpdir) == []


async def test_chromium_killed_mid_session_leaves_nothing(private_tmpdir: Path) -> None:
    async with Browser() as page:
        await page.load("about:blank")
        assert page.process is not None
        page.process.kill()
        page.process.wait()
    assert os.listdir(private_tmpdir) == []


async def test_a_browser_that_cannot_start_leaves_nothing(
    private_tmpdir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("leaderboard_cdp.CHROMIUM", "/bin/false")
    with pytest.raises(RuntimeError, match="chromium exited with status 1"):
        async with Browser():
            pass
    assert os.listdir(private_tmpdir) == []
