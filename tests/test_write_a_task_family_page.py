"""docs/write-a-task-family.md is true: its files, written out as shown, make a family that its commands install,
test and run end to end against the README's offline baselines (``builtin/oracle``, ``builtin/random``).

A fenced block whose info string names a path (```` ```python letters/count.py ````) is a file of the family;
the ``bash`` block is run as written, in the family's folder. Nothing is installed: ``pip install -e .`` is
answered by a stand-in that registers the ``pyproject.toml``'s entry points as an installed distribution does
(a ``dist-info`` folder on ``PYTHONPATH``, read by the real registry), and ``frontier``/``python`` are this
interpreter. The family's files also pass ``mypy --strict``.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGE = ROOT / "docs" / "write-a-task-family.md"
FENCE = re.compile(r"^```(\w+)(?:[ \t]+(\S+))?[ \t]*\n(.*?)^```[ \t]*$", re.MULTILINE | re.DOTALL)

PIP_STAND_IN = '''\
"""Answers ``pip install -e .`` as an editable install registers a project: its entry points, installed."""
import sys
import tomllib
from pathlib import Path

if sys.argv[1:] != ["install", "-e", "."]:
    sys.exit(f"this stand-in only runs 'pip install -e .', not {sys.argv[1:]}")
project = tomllib.loads(Path("pyproject.toml").read_text())["project"]
info = Path(sys.argv[0]).resolve().parent.parent / "site" / f"{project['name']}-{project['version']}.dist-info"
info.mkdir(parents=True)
(info / "METADATA").write_text(f"Metadata-Version: 2.1\\nName: {project['name']}\\nVersion: {project['version']}\\n")
groups = project.get("entry-points", {})
text = "".join(f"[{g}]\\n" + "".join(f"{k} = {v}\\n" for k, v in entries.items()) for g, entries in groups.items())
(info / "entry_points.txt").write_text(text)
print(f"Successfully installed {project['name']}-{project['version']}")
'''


def page_blocks() -> list[tuple[str, str | None, str]]:
    """``(language, path or None, body)`` of each fenced block of the page, in order."""
    return [(lang, path or None, body) for lang, path, body in FENCE.findall(PAGE.read_text(encoding="utf-8"))]


def layout_files(tree: str) -> set[str]:
    """The file paths the page's layout block draws (``├── name``, indented by nesting), relative to its root."""
    files: set[str] = set()
    folders: list[str] = []
    for line in tree.splitlines()[1:]:
        match = re.match(r"^((?:│   |    )*)[├└]── (\S+)", line)
        if match is None:
            continue
        depth = len(match.group(1)) // 4
        name = match.group(2)
        del folders[depth:]
        if name.endswith("/"):
            folders.append(name.rstrip("/"))
        else:
            files.add("/".join([*folders, name]))
    return files


def test_the_page_has_the_blocks_it_describes() -> None:
    blocks = page_blocks()
    files = {path for _, path, _ in blocks if path}
    assert files == {"pyproject.toml", "letters/__init__.py", "letters/count.py", "tests/test_count.py"}
    layout = next(body for lang, path, body in blocks if lang == "text" and path is None)
    assert layout_files(layout) == files
    assert [lang for lang, path, _ in blocks if path is None] == ["text", "bash"]


def test_layout_files_reads_nested_folders() -> None:
    tree = "top/\n├── a.toml\n├── pkg/\n│   ├── __init__.py   note\n│   └── b.py\n└── tests/\n    └── t.py\n"
    assert layout_files(tree) == {"a.toml", "pkg/__init__.py", "pkg/b.py", "tests/t.py"}


def _shim(folder: Path, name: str, body: str) -> None:
    path = folder / name
    path.write_text(body)
    path.chmod(0o755)


@pytest.mark.slow
def test_the_page_builds_a_family_that_installs_tests_and_runs(tmp_path: Path) -> None:
    project = tmp_path / "letters"
    for _, path, body in page_blocks():
        if path:
            (project / path).parent.mkdir(parents=True, exist_ok=True)
            (project / path).write_text(body)
    commands = next(body for lang, _, body in page_blocks() if lang == "bash")
    shims = tmp_path / "bin"
    shims.mkdir()
    _shim(shims, "pip", f"#!{sys.executable}\n{PIP_STAND_IN}")
    _shim(shims, "frontier", f'#!/bin/sh\nexec "{sys.executable}" -m harness "$@"\n')
    _shim(shims, "python", f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    env = {
        **os.environ,
        "PATH": os.pathsep.join([str(shims), os.environ["PATH"]]),
        "PYTHONPATH": os.pathsep.join([str(project), str(tmp_path / "site"), str(ROOT)]),
        "FRONTIER_CACHE_DIR": str(tmp_path / "cache"),
    }
    done = subprocess.run(
        ["bash", "-e", "-x", "-c", commands], cwd=project, env=env, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "letters/count: how many times a letter occurs in a word" in done.stdout
    assert "n (int, default 100): number of questions" in done.stdout
    assert re.search(r"^\d+ passed", done.stdout, re.MULTILINE), done.stdout[-2000:]
    assert "failed" not in done.stdout
    oracle = json.loads((project / "runs/letters-oracle/summary.json").read_text())
    guesses = json.loads((project / "runs/letters-random/summary.json").read_text())
    accuracy = oracle["tasks"]["letters/count"]["metrics"]["accuracy"]
    assert (accuracy["value"], accuracy["n"]) == (1.0, 20)
    assert guesses["tasks"]["letters/count"]["metrics"]["accuracy"]["value"] < 0.5
    mypy = [sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent", "--cache-dir", str(tmp_path / "mypy")]
    typed = subprocess.run(
        [*mypy, "letters", "tests"],
        cwd=project,
        env={**env, "MYPYPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert typed.returncode == 0, typed.stdout
    shown = done.stdout.rsplit("run directory: runs/letters-random", 1)[-1]
    row = r"letters/count\s*│\s*accuracy\s*│\s*1\.0000\s*│\s*\[0\.8389, 1\.0000\]\s*│\s*20\s*│"
    assert re.search(row, shown), shown
