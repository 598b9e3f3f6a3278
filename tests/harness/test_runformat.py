"""The run format (issue 20 item 10): one reader, a version in config.json and summary.json.

Runs written before versions were recorded read as version 1; a newer version is refused with a
message saying so by every reader: the store (show, resume, rescore), replay and the leaderboard.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from harness.adapters import resolve_adapter
from harness.cli.show import show_command
from harness.plan import RunPlan, TaskPlan
from harness.runformat import CONFIG_FILE, FORMAT_VERSION, SUMMARY_FILE, VERSION_KEY, RunFiles, RunFormatError
from harness.runner import RunOptions, execute
from harness.store import RunStore
from leaderboard.runs import iter_samples, load_run

PLAN = RunPlan(model="builtin/oracle", tasks=(TaskPlan("demo/arith", {"n": 4}),))
OPTIONS = RunOptions(progress=False)


@pytest.fixture
def run(tmp_path: Path) -> Path:
    """A finished run of four samples."""
    asyncio.run(execute(PLAN, tmp_path / "run", OPTIONS))
    return tmp_path / "run"


def _rewrite(path: Path, **changes: object) -> None:
    data = json.loads(path.read_text())
    for key, value in changes.items():
        if value is None:
            data.pop(key, None)
        else:
            data[key] = value
    path.write_text(json.dumps(data))


def test_a_run_records_the_format_version_first_in_config_and_summary(run: Path) -> None:
    for name in (CONFIG_FILE, SUMMARY_FILE):
        data = json.loads((run / name).read_text())
        assert next(iter(data)) == VERSION_KEY and data[VERSION_KEY] == FORMAT_VERSION == 3
    files = RunFiles(run)
    assert VERSION_KEY not in files.read_config()
    assert files.read_summary().tasks["demo/arith"].counts["scored"] == 4


def test_a_run_without_a_version_reads_as_version_one_and_resumes(run: Path) -> None:
    _rewrite(run / CONFIG_FILE, **{VERSION_KEY: None})
    _rewrite(run / SUMMARY_FILE, **{VERSION_KEY: None})
    assert RunStore(run).read_summary().tasks["demo/arith"].metrics["accuracy"].value == 1.0
    assert load_run(run).summary.run_id == "run"
    assert len(list(iter_samples(run))) == 4
    summary = asyncio.run(execute(PLAN, run, OPTIONS))  # resumes: nothing to run, not a different config
    assert summary.tasks["demo/arith"].counts["scored"] == 4
    assert len(run.joinpath("samples.jsonl").read_text().splitlines()) == 4


@pytest.mark.parametrize("name", [CONFIG_FILE, SUMMARY_FILE])
def test_a_newer_version_is_refused_by_every_reader_naming_the_file(run: Path, name: str) -> None:
    _rewrite(run / name, **{VERSION_KEY: FORMAT_VERSION + 1})
    newer, ours = FORMAT_VERSION + 1, FORMAT_VERSION
    message = rf"{name}: written in run format {newer}, newer than this frontier-evals reads \(format {ours}\)"
    with pytest.raises(RunFormatError, match=message):
        load_run(run)
    if name == CONFIG_FILE:
        with pytest.raises(RunFormatError, match=message):
            asyncio.run(execute(PLAN, run, OPTIONS))
        with pytest.raises(RunFormatError, match=message):
            resolve_adapter(f"replay/{run}")
        with pytest.raises(RunFormatError, match=message):
            list(iter_samples(run))
    else:
        with pytest.raises(RunFormatError, match=message):
            RunStore(run).read_summary()
    shown = CliRunner().invoke(show_command, [str(run)])
    assert shown.exit_code != 0 and isinstance(shown.exception, RunFormatError)


@pytest.mark.parametrize("version", ["1", 0, -3, True, 1.5, None])
def test_a_version_that_is_not_a_positive_integer_is_refused(run: Path, version: object) -> None:
    data = json.loads((run / SUMMARY_FILE).read_text())
    data[VERSION_KEY] = version
    (run / SUMMARY_FILE).write_text(json.dumps(data))
    with pytest.raises(RunFormatError, match=f"{VERSION_KEY} must be a positive integer"):
        RunFiles(run).read_summary()


def test_missing_and_malformed_run_files_are_named(tmp_path: Path, run: Path) -> None:
    with pytest.raises(RunFormatError, match="not a run directory"):
        RunFiles(tmp_path / "nowhere").read_summary()
    (run / SUMMARY_FILE).unlink()
    with pytest.raises(RunFormatError, match=r"has no summary\.json: the run has not finished once"):
        RunFiles(run).read_summary()
    (run / SUMMARY_FILE).write_text("[" * 100_000)
    with pytest.raises(RunFormatError, match=r"summary\.json: not valid JSON"):
        RunFiles(run).read_summary()
    (run / CONFIG_FILE).write_text('"a string"')
    with pytest.raises(RunFormatError, match=r"config\.json: expected a JSON object, got str"):
        RunStore(run).read_config()
