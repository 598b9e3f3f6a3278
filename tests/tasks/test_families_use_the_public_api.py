"""Families reach the harness through ``harness.api`` only, so the modules behind it stay free to move.

Every ``import`` and ``from ... import`` in ``tasks/**.py`` is read with :mod:`ast`, wherever it stands (module
level, in a function, under ``if TYPE_CHECKING:``); one naming a ``harness`` module other than ``harness.api``
fails, with the file and line. Nothing is exempt: every name a family needs is exported by ``harness.api``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

TASKS = Path(__file__).resolve().parents[2] / "tasks"
PUBLIC = "harness.api"


def harness_imports(source: str) -> Iterator[tuple[int, str]]:
    """``(line, module)`` of each import of a ``harness`` module other than ``harness.api`` in ``source``."""
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules = [node.module] if node.module != "harness" else [f"harness.{a.name}" for a in node.names]
        else:
            continue
        for module in modules:
            if (module == "harness" or module.startswith("harness.")) and module != PUBLIC:
                yield node.lineno, module


def test_no_family_imports_a_harness_module_but_the_api() -> None:
    files = sorted(TASKS.rglob("*.py"))
    found = [
        f"{path.relative_to(TASKS.parent)}:{line}: {module}"
        for path in files
        for line, module in harness_imports(path.read_text(encoding="utf-8"))
    ]
    assert len(files) > 50
    assert not found, "import these through harness.api:\n" + "\n".join(found)


def test_the_walk_finds_every_form_of_import() -> None:
    source = (
        "import harness.task\n"
        "from harness import types\n"
        "from harness.api import Task\n"
        "from harness import api\n"
        "def solve():\n"
        "    from harness.calls import auxiliary_model\n"
        "if TYPE_CHECKING:\n"
        "    from harness.summary import Accumulator\n"
        "from scorers.numeric import parse_integer\n"
    )
    assert sorted(harness_imports(source)) == [
        (1, "harness.task"),
        (2, "harness.types"),
        (6, "harness.calls"),
        (8, "harness.summary"),
    ]
