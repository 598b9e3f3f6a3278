"""Import formats other packages declare under ``frontier.import_formats``: listed, guessed, read; bad ones skipped."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from harness.errors import ConfigError
from harness.import_formats import declared_formats, format_help, guess_format, read_outputs
from harness.registry import resolve_task

PLUGIN = '''
from pathlib import Path

from harness.import_formats import ImportedText, ImportFormatSpec, read_import_text


def read_pipes(path: Path) -> list[ImportedText]:
    """Lines of ``<row>|<text>``."""
    entries = []
    for number, line in enumerate(read_import_text(path).splitlines(), start=1):
        row, _, text = line.partition("|")
        entries.append(ImportedText(text=text, line=number, row=int(row)))
    return entries


PIPES = ImportFormatSpec(help="row|text lines", read=read_pipes, first_line=r"^\\d+\\|")
NOT_A_SPEC = "a string"
'''


@pytest.fixture(scope="module")
def plugin_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """A site folder whose distribution declares a good format, one with a built-in name and two bad ones."""
    site = tmp_path_factory.mktemp("site")
    (site / "pipeplug.py").write_text(textwrap.dedent(PLUGIN))
    info = site / "pipeplug-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: pipeplug\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(
        "[frontier.import_formats]\npipes = pipeplug:PIPES\njsonl = pipeplug:PIPES\n"
        "notspec = pipeplug:NOT_A_SPEC\ngone = no_such_module_zzz:FORMAT\n"
    )
    path = os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])
    return {**os.environ, "PYTHONPATH": path, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}


def _frontier(env: dict[str, str], cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "harness", *args], capture_output=True, text=True, env=env, timeout=120, cwd=cwd
    )


def test_a_declared_format_is_listed_guessed_and_scored(plugin_env: dict[str, str], tmp_path: Path) -> None:
    listed = _frontier(plugin_env, tmp_path, "import", "--help")
    assert listed.returncode == 0, listed.stderr
    assert "pipes    row|text lines" in listed.stdout and "cti-log" in listed.stdout
    assert "notspec" not in listed.stdout and "gone" not in listed.stdout
    assert "import format 'jsonl' from pipeplug:PIPES ignored: the name is built in" in listed.stderr
    assert "import format gone failed to load from no_such_module_zzz:FORMAT: ModuleNotFoundError" in listed.stderr
    assert "import format 'notspec' ignored: pipeplug:NOT_A_SPEC is not of type ImportFormatSpec" in listed.stderr
    samples = list(resolve_task("demo/arith").create(n=3, steps=2).samples())
    answers = [f"ANSWER: {s.target + (1 if i == 2 else 0)}" for i, s in enumerate(samples)]
    source = tmp_path / "outputs.txt"
    source.write_text("".join(f"{i}|{a}\n" for i, a in enumerate(answers)), encoding="utf-8")
    done = _frontier(
        plugin_env, tmp_path, "import", "--task", "demo/arith", "-T", "n=3", "-T", "steps=2", "--from", str(source)
    )
    assert done.returncode == 0, done.stderr
    run = next((tmp_path / "runs").iterdir())
    assert json.loads((run / "config.json").read_text())["import"]["format"] == "pipes"
    accuracy = json.loads((run / "summary.json").read_text())["tasks"]["demo/arith"]["metrics"]["accuracy"]
    assert accuracy["value"] == pytest.approx(2 / 3) and accuracy["n"] == 3


def test_the_installed_cti_log_format_is_declared_by_the_cyber_family(tmp_path: Path) -> None:
    formats = declared_formats()
    assert formats["cti-log"].read.__module__ == "tasks.cyber.cti_log"
    assert list(format_help())[:2] == ["jsonl", "tsv"]
    log = tmp_path / "responses"
    log.write_text("#####1#####\nA\n\n", encoding="utf-8")
    assert guess_format(log) == "cti-log"
    assert [(e.row, e.text) for e in read_outputs(log)] == [(0, "A")]


def test_an_unknown_format_or_an_unrecognised_file_names_the_formats(tmp_path: Path) -> None:
    text = tmp_path / "answers"
    text.write_text("just prose\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"cannot tell the format of .*\(jsonl, tsv, cti-log"):
        guess_format(text)
    with pytest.raises(ConfigError, match=r"unknown format 'yaml'; choose one of jsonl, tsv, cti-log"):
        read_outputs(text, "yaml")
    with pytest.raises(ConfigError, match="--column applies to TSV files, not cti-log"):
        read_outputs(text, "cti-log", column="x")
