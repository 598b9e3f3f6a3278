"""The reference data folder is found in one place: tests and benchmarks never build its path themselves.

A file that computes ``<repo>/../shared/data`` on its own ignores ``$FRONTIER_REFERENCE_DATA`` (its tests skip,
or its benchmark reads the wrong folder, wherever the data lives elsewhere); the ``shared_data`` fixture and
``harness.testing.reference_data.reference_data_dir`` are the ways to it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from harness.testing.reference_data import ENV_VAR, reference_data_dir

REPO = Path(__file__).resolve().parents[1]


def _own_paths(tree: ast.Module) -> list[int]:
    """Lines that build a ``shared...`` path from ``__file__`` or read the variable themselves."""
    lines = []
    for node in ast.walk(tree):
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):
            names = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
            texts = [n.value for n in ast.walk(node) if isinstance(n, ast.Constant) and isinstance(n.value, str)]
            if "__file__" in names and any(text.startswith("shared") for text in texts):
                lines.append(node.lineno)
        elif isinstance(node, ast.Constant) and node.value == ENV_VAR:
            lines.append(node.lineno)
    return sorted(set(lines))


def test_no_test_or_benchmark_finds_the_reference_data_on_its_own() -> None:
    files = [*sorted((REPO / "tests").rglob("*.py")), *sorted((REPO / "benchmarks").glob("*.py"))]
    found = [f"{path.relative_to(REPO)}:{line}" for path in files for line in _own_paths(ast.parse(path.read_text()))]
    assert len(files) > 100
    assert not found, "use the shared_data fixture or reference_data_dir() instead:\n" + "\n".join(found)


def test_the_scan_flags_both_ways_of_building_the_path_and_passes_the_helper() -> None:
    built = 'HUMAN = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "coins-human"'
    read = 'SHARED = Path(os.environ.get("FRONTIER_REFERENCE_DATA") or ROOT / "x")'
    assert _own_paths(ast.parse(built)) == [1]
    assert _own_paths(ast.parse(read)) == [1]
    assert _own_paths(ast.parse('data = reference_data_dir() / "coins-human"\nscratch = tmp / "shared" / "data"')) == []


def test_the_variable_wins_and_the_default_lies_beside_the_repository(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv(ENV_VAR, str(tmp_path))
    assert reference_data_dir() == tmp_path
    monkeypatch.setenv(ENV_VAR, "")
    assert reference_data_dir() == REPO.parent / "shared" / "data"
    monkeypatch.delenv(ENV_VAR)
    assert reference_data_dir() == REPO.parent / "shared" / "data"
