"""The typed registry: TaskIndex, one way to declare a family, commands by entry point, diagnostics."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from harness.errors import ConfigError
from harness.registry import TaskIndex, resolve_task, task_index
from harness.task import Task, TaskArgs, TaskEntry, TaskFamily
from harness.types import Output, Sample, Score


class CountArgs(TaskArgs):
    """Arguments of the test task."""

    n: int = 2


class CountTask(Task[CountArgs]):
    """A task whose argument model is only its type parameter."""

    description = "counts"

    def samples(self) -> list[Sample]:
        return [Sample(id=str(i), input="x", target=str(i)) for i in range(self.args.n)]

    def score(self, sample: Sample, output: Output) -> Score:
        return Score.of(output.text == sample.target)


def test_the_argument_model_follows_from_the_type_parameter() -> None:
    assert CountTask.Args is CountArgs
    task = CountTask("t/count", n="3")
    assert task.args.n == 3
    assert [s.id for s in task.samples()] == ["0", "1", "2"]
    with pytest.raises(ConfigError, match=r"-T m: .*valid arguments: n"):
        CountTask("t/count", m=1)


def test_an_args_that_contradicts_the_type_parameter_is_refused_when_the_class_is_defined() -> None:
    class OtherArgs(TaskArgs):
        """Unrelated arguments."""

    with pytest.raises(TypeError, match="not its parameter CountArgs"):

        class Wrong(Task[CountArgs]):
            Args = OtherArgs

    class Narrower(CountArgs):
        """A subclass of the parameter is allowed."""

        extra: bool = False

    class Right(Task[CountArgs]):
        Args = Narrower

    assert Right.Args is Narrower


def test_the_index_is_typed_and_frozen() -> None:
    index = task_index()
    assert isinstance(index, TaskIndex)
    assert "" not in index.entries
    assert all(isinstance(entry, TaskEntry) for entry in index.entries.values())
    assert all(isinstance(family, TaskFamily) for family in index.families)
    assert index.broken == {}
    assert isinstance(resolve_task("demo/arith"), TaskEntry)
    with pytest.raises(AttributeError):
        index.broken = {}  # type: ignore[misc]


def test_a_family_resolves_unlisted_names_through_its_resolvers() -> None:
    def by_prefix(name: str) -> TaskEntry | None:
        return TaskEntry(name, "made", CountTask) if name.startswith("count/") else None

    family = TaskFamily.of(("count/listed", CountTask), resolvers=(by_prefix,))
    index = TaskIndex(dict(family.entries), (family,), {"gone": "ImportError: no module named gone"})
    assert index.resolve("count/listed").description == "counts"
    assert index.resolve("count/any-path.yaml").description == "made"
    with pytest.raises(ConfigError, match="family 'gone' failed to load: ImportError"):
        index.resolve("gone/x")
    with pytest.raises(ConfigError, match="did you mean count/listed"):
        index.resolve("cuont/listed")
    with pytest.raises(ConfigError, match="unknown task 'zzz'; run 'frontier list tasks'"):
        index.resolve("zzz")


def test_the_critic_reasoner_registers_from_its_family() -> None:
    from harness.registry import BUILTIN_METHODS, method_entries, resolve_method

    assert "critic_reasoner" not in BUILTIN_METHODS
    assert method_entries()["critic_reasoner"].target == "tasks.confiqa.critic_reasoner:CriticReasoner"
    assert callable(resolve_method("critic_reasoner:mask=[MASK]"))


@pytest.fixture(scope="module")
def broken_plugins(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """A site folder with a distribution whose task family and subcommand fail to import."""
    site = tmp_path_factory.mktemp("site")
    (site / "brokenplug.py").write_text("raise ImportError('brokenplug needs the missing package zzz')\n")
    (site / "halfplug.py").write_text(
        textwrap.dedent(
            """
            from harness.cli.commands import LazyCommand

            MISSING = LazyCommand("a subcommand whose module is missing", "no_such_module_zzz:command")
            """
        )
    )
    info = site / "brokenplug-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: brokenplug\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[frontier.tasks]\nbroken = brokenplug:FAMILY\n\n[frontier.commands]\nhalf = halfplug:MISSING\n"
    )
    path = os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])
    return {**os.environ, "PYTHONPATH": path, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}


def _frontier(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "harness", *args], capture_output=True, text=True, env=env, timeout=120
    )


def test_a_subcommand_whose_module_fails_to_import_prints_its_one_line_error(broken_plugins: dict[str, str]) -> None:
    listed = _frontier(broken_plugins, "--help")
    assert listed.returncode == 0, listed.stderr
    assert "a subcommand whose module is missing" in listed.stdout
    done = _frontier(broken_plugins, "half")
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert lines == ["error: 'half' is unavailable: ModuleNotFoundError: No module named 'no_such_module_zzz'"]


@pytest.mark.slow
def test_a_broken_family_load_is_visible_with_v(broken_plugins: dict[str, str]) -> None:
    quiet = _frontier(broken_plugins, "list", "tasks")
    assert quiet.returncode == 0, quiet.stderr
    row = next(line for line in quiet.stdout.splitlines() if line.startswith("broken/*"))
    assert row.split(None, 1)[1] == "(family failed to load: ImportError: brokenplug needs the missing package zzz)"
    assert "brokenplug" not in quiet.stderr
    verbose = _frontier(broken_plugins, "-v", "list", "tasks")
    assert verbose.returncode == 0, verbose.stderr
    assert (
        "INFO harness.registry: task family broken (brokenplug:FAMILY) failed to load: "
        "ImportError: brokenplug needs the missing package zzz"
    ) in verbose.stderr
    debug = _frontier(broken_plugins, "--log-level", "debug", "run", "--task", "broken/x", "--model", "builtin/oracle")
    assert debug.returncode == 2
    assert "failed to load: ImportError: brokenplug needs the missing package zzz" in debug.stderr.splitlines()[-1]


def test_a_bad_log_level_is_a_usage_error() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "harness", "--log-level", "loud", "list", "tasks"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2
    assert "Invalid value for '--log-level'" in done.stderr


def test_the_command_module_names_no_family() -> None:
    source = (Path(__file__).parents[2] / "harness" / "cli" / "main.py").read_text()
    named = re.findall(r"\b(tasks\.\w+|coins\w*|tools|longcot|confiqa|tau2|cyber|leaderboard)\b", source)
    assert named == []


def test_the_families_declare_their_data_and_the_fetcher_names_none() -> None:
    from harness.datasets_get import data_note, families, get_family, sources

    assert families() == ["advbench", "confiqa", "ctibench", "harmbench", "longcot", "strongreject", "tau2", "xstest"]
    assert data_note("jailbreak/harmbench") == "frontier data get harmbench"
    assert data_note("jailbreak/jbb").startswith("-T behaviors=<harmful-behaviors.csv")
    assert {source.family: source.tasks for source in sources().values()}["ctibench"] == ("cyber/cti-*",)
    assert data_note("longcot/full") == "frontier data get longcot"
    assert data_note("cyber/cti-rcm-2021") == "frontier data get ctibench"
    assert data_note("cyber/seceval") == "-T data=<the benchmark's JSON file>"
    assert data_note("demo/arith") is None
    said: list[str] = []
    assert get_family("tau2-bench", Path("unused"), report=said.append) == Path("unused")
    assert said == [f"tau2: nothing to download: {sources()['tau2'].bundled}"]
    with pytest.raises(ConfigError, match="unknown data family 'cyber-json-sets'"):
        get_family("cyber-json-sets", Path("unused"))
    source = (Path(__file__).parents[2] / "harness" / "datasets_get.py").read_text()
    assert re.findall(r"\b(longcot|confiqa|ctibench|cti|tau2|cyber|LongCoT|ConFiQA|CTI-Bench)\b", source) == []
