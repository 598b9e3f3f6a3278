"""Every test checks something: a test function with no assertion passes whatever the code does.

A test counts as checking when its body (or a helper it calls, defined in its module or imported
from a helper module under ``tests/``) holds an ``assert`` statement, ``pytest.raises``/``warns``/
``fail``, or an ``assert_*`` call (``pd.testing.assert_frame_equal``, ``mock.assert_called_with``).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

TESTS = Path(__file__).resolve().parent
PYTEST_CHECKS = frozenset({"raises", "warns", "fail", "deprecated_call"})
Function = ast.FunctionDef | ast.AsyncFunctionDef


def _called_names(node: ast.AST) -> Iterator[str]:
    """The names of the functions ``node`` calls (``f(...)`` gives f, ``a.b.f(...)`` gives f)."""
    for call in ast.walk(node):
        if isinstance(call, ast.Call):
            if isinstance(call.func, ast.Name):
                yield call.func.id
            elif isinstance(call.func, ast.Attribute):
                yield call.func.attr


def _is_pytest_check(node: ast.AST) -> bool:
    """``node`` calls ``pytest.raises``, ``warns``, ``fail`` or ``deprecated_call``."""
    func = node.func if isinstance(node, ast.Call) else None
    return (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Name)
        and func.value.id == "pytest"
        and func.attr in PYTEST_CHECKS
    )


def _checks_directly(node: ast.AST) -> bool:
    """``node`` holds an assert statement, a pytest check or an ``assert*`` call."""
    if any(isinstance(child, ast.Assert) or _is_pytest_check(child) for child in ast.walk(node)):
        return True
    return any(name.startswith("assert") for name in _called_names(node))


def _functions(tree: ast.Module) -> dict[str, Function]:
    """Every function defined anywhere in the module, by name (methods and nested ones included)."""
    return {n.name: n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)}


def _checking(functions: dict[str, Function], known: set[str]) -> set[str]:
    """The functions that check, directly or through another checking function (a fixed point)."""
    checking = {name for name, node in functions.items() if _checks_directly(node)} | known
    grew = True
    while grew:
        grew = False
        for name, node in functions.items():
            if name not in checking and checking.intersection(_called_names(node)):
                checking.add(name)
                grew = True
    return checking


def _helper_checks() -> dict[str, set[str]]:
    """For each helper module under tests/ (not a test module), the names of its functions that check."""
    helpers: dict[str, set[str]] = {}
    for path in TESTS.rglob("*.py"):
        if not path.name.startswith("test_"):
            helpers.setdefault(path.stem, set()).update(_checking(_functions(ast.parse(path.read_text())), set()))
    return helpers


def _imported_checks(tree: ast.Module, helpers: dict[str, set[str]]) -> set[str]:
    """The checking helpers the module imports from helper modules under tests/."""
    imported: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            checks = helpers.get(node.module.rsplit(".", 1)[-1], set())
            imported.update(alias.asname or alias.name for alias in node.names if alias.name in checks)
    return imported


def test_every_test_function_checks_something() -> None:
    helpers = _helper_checks()
    unchecked = []
    modules = sorted(TESTS.rglob("test_*.py"))
    for path in modules:
        tree = ast.parse(path.read_text())
        functions = _functions(tree)
        checking = _checking(functions, _imported_checks(tree, helpers))
        unchecked += [
            f"{path.relative_to(TESTS.parent)}:{node.lineno} {name}"
            for name, node in functions.items()
            if name.startswith("test") and name not in checking
        ]
    assert len(modules) > 100
    assert not unchecked, "tests that assert nothing (they pass whatever the code does):\n" + "\n".join(unchecked)


def test_the_scan_flags_a_test_without_assertion_and_accepts_each_way_of_checking() -> None:
    source = """
import pytest
def check(x):
    assert x
def via_helper(x):
    check(x)
def test_nothing():
    print(1)
def test_assert():
    assert 1
def test_raises():
    with pytest.raises(ValueError):
        int("x")
def test_frame():
    pd.testing.assert_frame_equal(a, b)
def test_helper():
    via_helper(1)
def test_imported():
    binary(1)
"""
    tree = ast.parse(source)
    checking = _checking(
        _functions(tree), _imported_checks(ast.parse("from conftest import binary"), {"conftest": {"binary"}})
    )
    tests = {name for name in _functions(tree) if name.startswith("test")}
    assert tests - checking == {"test_nothing"}
