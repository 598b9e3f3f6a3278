"""'frontier list tasks' reads each family's catalogue instead of importing the family, and the catalogues are true."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from harness import registry
from harness.registry import CATALOGUE_GROUP, TASK_GROUP, Registered, task_listing

FAMILY_MODULES = ("harness.task", "pydantic")
"""What listing a family would import: the task base classes and their argument models."""


def test_each_catalogue_names_exactly_its_familys_listed_tasks_and_descriptions() -> None:
    catalogues = registry._plugins(CATALOGUE_GROUP)
    assert catalogues, "no frontier.catalogues entry point is installed (pip install -e .)"
    for name, point in catalogues.items():
        family = registry._load_family(name, registry._plugins(TASK_GROUP)[name])
        assert not isinstance(family, str), family
        truth = {entry.name: entry.description for entry in family}
        assert point.load() == truth, f"{point.target} is stale; it should read:\n{json.dumps(truth, indent=4)}"


def test_every_family_of_this_project_has_a_catalogue() -> None:
    ours = {name for name, point in registry._plugins(TASK_GROUP).items() if point.target.startswith("tasks.")}
    missing = ours - set(registry._plugins(CATALOGUE_GROUP))
    assert not missing, (
        f"families without a catalogue (listing imports them): {sorted(missing)}; add each to "
        'tasks/catalogues.py and to [project.entry-points."frontier.catalogues"] in pyproject.toml'
    )


def test_listing_the_tasks_imports_no_family() -> None:
    probe = (
        "import sys\nfrom harness.cli.main import main\n"
        "try:\n    main(['list', 'tasks'])\nexcept SystemExit:\n    pass\n"
        f"print('IMPORTED:' + ','.join(m for m in {FAMILY_MODULES!r} if m in sys.modules))"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "demo/arith" in done.stdout and "longcot/mini" in done.stdout
    assert done.stdout.splitlines()[-1] == "IMPORTED:", done.stdout.splitlines()[-1]


@pytest.fixture
def plugins(monkeypatch: pytest.MonkeyPatch) -> dict[str, dict[str, Registered]]:
    """The registry's entry points, replaced by what each test puts here (one family: demo)."""
    groups: dict[str, dict[str, Registered]] = {
        TASK_GROUP: {"demo": Registered("demo", "", "tasks.demo:FAMILY")},
        CATALOGUE_GROUP: {},
    }
    monkeypatch.setattr(registry, "_plugins", lambda group: groups.get(group, {}))
    return groups


def test_a_catalogue_is_listed_as_it_is_without_loading_the_family(
    plugins: dict[str, dict[str, Registered]],
) -> None:
    plugins[TASK_GROUP]["demo"] = Registered("demo", "", "no_such_module_zzz:FAMILY")
    plugins[CATALOGUE_GROUP]["demo"] = Registered("demo", "", "tasks.catalogues:COINS")
    listed, broken = task_listing()
    assert listed == {
        "coins/spec-gen": "write Rocq specs of HumanEval problems; judged by proving them on test cases (Coins)"
    }
    assert broken == {}


@pytest.mark.parametrize("target", ["no_such_module_zzz:DEMO", "tasks.data_sources:LONGCOT", "tasks.catalogues"])
def test_an_unusable_catalogue_falls_back_to_the_family(plugins: dict[str, dict[str, Registered]], target: str) -> None:
    plugins[CATALOGUE_GROUP]["demo"] = Registered("demo", "", target)
    listed, broken = task_listing()
    assert listed == {"demo/arith": "seeded multi-step integer arithmetic with an exact scorer (demo)"}
    assert broken == {}


def test_a_family_without_catalogue_that_fails_to_load_is_reported(plugins: dict[str, dict[str, Registered]]) -> None:
    plugins[TASK_GROUP]["gone"] = Registered("gone", "", "no_such_module_zzz:FAMILY")
    listed, broken = task_listing()
    assert list(listed) == ["demo/arith"]
    assert broken == {"gone": "ModuleNotFoundError: No module named 'no_such_module_zzz'"}
