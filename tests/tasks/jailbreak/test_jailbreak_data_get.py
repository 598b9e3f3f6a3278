"""``frontier data get`` for the jailbreak sources over real HTTP from a loopback mirror of harmless stand-ins.

The mirror is laid out as raw.githubusercontent.com is (``<owner>/<repo>/<ref>/<path>``) and holds this
suite's stand-in files under the upstream paths, so nothing harmful is fetched; each task then reads
the file where the source's usage line says it is.
"""

from __future__ import annotations

import http.server
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from harness.datasets_get import get_family, sources
from harness.registry import resolve_task

FIXTURES = Path(__file__).parent / "fixtures"
STAND_INS = {
    "advbench": ("jailbreak/advbench", "harmful_behaviors.csv"),
    "harmbench": ("jailbreak/harmbench", "harmbench_behaviors_text_all.csv"),
    "strongreject": ("jailbreak/strongreject", "strongreject_dataset.csv"),
    "xstest": ("jailbreak/over-refusal", "xstest_prompts.csv"),
}


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture()
def mirror(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    root = tmp_path / "mirror"
    root.mkdir()
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), lambda *a: _Quiet(*a, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", root
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("family", sorted(STAND_INS))
def test_each_jailbreak_source_is_fetched_and_read(mirror: tuple[str, Path], tmp_path: Path, family: str) -> None:
    base_url, root = mirror
    source = sources()[family]
    task, fixture = STAND_INS[family]
    ((upstream, local),) = source.files
    served = root / source.repository / source.ref / upstream
    served.parent.mkdir(parents=True)
    shutil.copy(FIXTURES / fixture, served)
    folder = get_family(family, tmp_path / "data", base_url=base_url, report=lambda _: None)
    assert (folder / local).read_bytes() == (FIXTURES / fixture).read_bytes()
    assert source.usage.format(folder=folder) == f"-T behaviors={folder / local}"
    assert source.needed_by(task) and source.licence
    assert list(resolve_task(task).create(behaviors=str(folder / local)).samples())
