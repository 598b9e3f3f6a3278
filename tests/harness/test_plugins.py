"""Third-party adapters, methods and tasks plug in through entry points of an installed package."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

PLUGIN = '''
"""A tiny frontier plugin: an adapter that always answers 42, a method that upper-cases, a task."""
from harness.api import Generation, MethodAdapter, Sample, Score, Task


class FortyTwo:
    """Answers 42 to everything."""
    capabilities = frozenset({"chat"})

    def __init__(self, rest):
        self.name = "fortytwo/" + rest

    async def generate(self, request):
        return Generation(text="ANSWER: 42")


def create(rest, **options):
    return FortyTwo(rest)


class Shout(MethodAdapter):
    """Upper-cases the answer."""
    method_name = "shout"

    async def generate(self, request):
        generation = await self.inner.generate(request)
        return generation.model_copy(update={"text": generation.text.upper() + "!"})


class IsShouted(Task):
    """Scores 1 when the answer ends with an exclamation mark."""
    description = "plugin task: is the answer shouted?"

    def samples(self):
        return [Sample(id=str(i), input="say something") for i in range(3)]

    def score(self, sample, output):
        return Score.of(output.text.endswith("!"))
'''

PYPROJECT = """
[build-system]
requires = ["setuptools"]
build-backend = "setuptools.build_meta"

[project]
name = "tinyplug"
version = "0.1"

[project.entry-points."frontier.adapters"]
fortytwo = "tinyplug:create"

[project.entry-points."frontier.methods"]
shout = "tinyplug:Shout"

[project.entry-points."frontier.tasks"]
"plug/shouted" = "tinyplug:IsShouted"
"""


@pytest.mark.slow
def test_an_installed_plugin_adds_an_adapter_a_method_and_a_task(tmp_path: Path) -> None:
    source = tmp_path / "src"
    source.mkdir()
    (source / "tinyplug.py").write_text(textwrap.dedent(PLUGIN))
    (source / "pyproject.toml").write_text(PYPROJECT)
    target = tmp_path / "site"
    install = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--target",
            str(target),
            str(source),
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert install.returncode == 0, install.stderr
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(target), os.environ.get("PYTHONPATH", "")])}

    def frontier(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "harness", *args], capture_output=True, text=True, env=env, timeout=120
        )

    assert "fortytwo/..." in frontier("list", "adapters").stdout
    assert "Upper-cases the answer." in frontier("list", "methods").stdout
    assert "plug/shouted" in frontier("list", "tasks").stdout
    run = tmp_path / "run"
    done = frontier(
        "run", "--task", "demo/arith", "--model", "fortytwo/any", "--limit", "4", "--out", str(run), "--no-cache"
    )
    assert done.returncode == 0, done.stderr
    outputs = [json.loads(line)["output"]["text"] for line in (run / "samples.jsonl").read_text().splitlines()]
    assert outputs == ["ANSWER: 42"] * 4
    shouted = tmp_path / "shouted"
    done = frontier(
        "run",
        "--task",
        "plug/shouted",
        "--model",
        "fortytwo/any",
        "--method",
        "shout",
        "--out",
        str(shouted),
        "--no-cache",
    )
    assert done.returncode == 0, done.stderr
    summary = json.loads((shouted / "summary.json").read_text())
    assert summary["methods"] == ["shout"]
    assert summary["tasks"]["plug/shouted"]["metrics"]["accuracy"]["value"] == 1.0
