"""No import cycle in the code base, deferred or not (issue 20 item 12).

Every ``import`` and ``from ... import`` statement is read with :mod:`ast`, wherever it stands (module level,
inside a function, under ``if TYPE_CHECKING:``), so a cycle that is only hidden by a function-level import counts.
``from pkg import name`` is an edge to ``pkg.name`` when that is a module of the code base and to ``pkg`` otherwise;
the implicit import of a package's ``__init__`` by its submodules is not an edge, nor is a module naming itself
(``from pkg import name`` inside ``pkg/__init__.py``). A cycle is a strongly connected component of more than one
module.

Run ``python tests/test_import_cycles.py`` to print every cycle with one concrete path through it.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator, Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("harness", "tasks", "scorers", "coins_rocq", "leaderboard")

Graph = Mapping[str, frozenset[str]]


def module_files(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> dict[str, Path]:
    """Map each dotted module name of ``packages`` under ``root`` to its file (a package to its ``__init__``)."""
    modules: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join(parts)] = path
    return modules


def _base_of(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute module a ``from`` import names, resolving its leading dots against ``module``."""
    if node.level == 0:
        return node.module or ""
    anchor = module.split(".") if is_package else module.split(".")[:-1]
    anchor = anchor[: len(anchor) - (node.level - 1)]
    return ".".join([*anchor, node.module] if node.module else anchor)


def _known(name: str, modules: Mapping[str, Path]) -> str | None:
    """``name`` or its longest prefix that is a module of the code base, or None for outside modules."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


def imported_modules(module: str, path: Path, modules: Mapping[str, Path]) -> frozenset[str]:
    """The code-base modules that ``module`` imports anywhere in its file."""
    is_package = path.name == "__init__.py"
    targets: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            targets.update(found for alias in node.names if (found := _known(alias.name, modules)))
        elif isinstance(node, ast.ImportFrom):
            base = _base_of(module, is_package, node)
            for alias in node.names:
                found = f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else _known(base, modules)
                if found:
                    targets.add(found)
    targets.discard(module)
    return frozenset(targets)


def import_graph(root: Path = ROOT, packages: tuple[str, ...] = PACKAGES) -> dict[str, frozenset[str]]:
    """Each module of the code base with the code-base modules it imports."""
    modules = module_files(root, packages)
    return {name: imported_modules(name, path, modules) for name, path in modules.items()}


def strongly_connected(graph: Graph) -> list[list[str]]:
    """Tarjan's strongly connected components of ``graph`` (iterative: no recursion limit to meet)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, successors = work[-1]
            successor = next(successors, None)
            if successor is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component: list[str] = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    components.append(sorted(component))
            elif successor not in index:
                index[successor] = low[successor] = len(index)
                stack.append(successor)
                on_stack.add(successor)
                work.append((successor, iter(sorted(graph.get(successor, ())))))
            elif successor in on_stack:
                low[node] = min(low[node], index[successor])
    return components


def cycles(graph: Graph) -> list[list[str]]:
    """The import cycles of ``graph``: its strongly connected components of more than one module."""
    return [component for component in strongly_connected(graph) if len(component) > 1]


def cycle_path(graph: Graph, component: list[str]) -> list[str]:
    """One concrete cycle inside ``component``, from its first module back to it (breadth-first, shortest)."""
    members = set(component)
    start = component[0]
    previous: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following: list[str] = []
        for node in frontier:
            for successor in sorted(graph[node] & members):
                if successor == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(previous[path[-1]])
                    return [*reversed(path), start]
                if successor not in previous:
                    previous[successor] = node
                    following.append(successor)
        frontier = following
    raise ValueError(f"{component} is not a cycle")


def describe(graph: Graph) -> list[str]:
    """One line per cycle: its modules and a path through them."""
    return [f"{len(c)} modules: {' -> '.join(cycle_path(graph, c))}  [{', '.join(c)}]" for c in cycles(graph)]


def test_the_checker_finds_a_deferred_cycle(tmp_path: Path) -> None:
    """A cycle closed only by a function-level import is found; a one-way import is not a cycle."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("from pkg.a import run\n")
    (package / "a.py").write_text("from pkg import b\n\ndef run():\n    return b.VALUE\n")
    (package / "b.py").write_text("VALUE = 1\n\ndef later():\n    from .a import run\n    return run\n")
    (package / "c.py").write_text("import pkg.a\nimport json\n")
    graph = import_graph(tmp_path, ("pkg",))
    assert graph["pkg.c"] == frozenset({"pkg.a"})
    assert cycles(graph) == [["pkg.a", "pkg.b"]]
    (package / "b.py").write_text("VALUE = 1\n")
    assert cycles(import_graph(tmp_path, ("pkg",))) == []


def test_the_checker_resolves_relative_and_package_imports(tmp_path: Path) -> None:
    """``from . import x`` in a package and ``from ..y import z`` in a submodule name the right modules."""
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "y.py").write_text("z = 1\n")
    (tmp_path / "pkg" / "sub" / "__init__.py").write_text("from . import x\n")
    (tmp_path / "pkg" / "sub" / "x.py").write_text("from ..y import z\nfrom pkg.sub import x\n")
    graph = import_graph(tmp_path, ("pkg",))
    assert graph["pkg.sub"] == frozenset({"pkg.sub.x"})
    assert graph["pkg.sub.x"] == frozenset({"pkg.y"})
    assert cycles(graph) == []


def test_no_import_cycle_in_the_code_base() -> None:
    """No module of harness, tasks, scorers, coins_rocq or leaderboard reaches itself through imports."""
    graph = import_graph()
    assert len(graph) > 100, "the checker read too few modules to mean anything"
    found = describe(graph)
    assert not found, "import cycles:\n" + "\n".join(found)


if __name__ == "__main__":
    lines = describe(import_graph())
    print("\n".join(lines) or "no import cycle")
    print(f"{len(lines)} cycles")
    sys.exit(1 if lines else 0)
