"""The ``--executor`` options and the call that dispatches a run to the chosen executor."""

from __future__ import annotations

from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from harness.cli.executor import executor_options, run_plan
from harness.errors import ConfigError
from harness.plan import RunPlan, TaskPlan
from harness.runner import RunOptions
from harness.store import RunStore


@click.command()
@executor_options
def show(executor: str, ray_address: str | None, ray_workers: int | None) -> None:
    """Echo the parsed executor options."""
    click.echo(f"{executor}|{ray_address}|{ray_workers}")


def test_the_options_default_to_the_local_executor_and_parse_ray_settings() -> None:
    runner = CliRunner()
    assert runner.invoke(show, []).output.strip() == "local|None|None"
    result = runner.invoke(show, ["--executor", "ray", "--ray-address", "10.0.0.5:6379", "--ray-workers", "4"])
    assert result.output.strip() == "ray|10.0.0.5:6379|4"
    assert runner.invoke(show, ["--executor", "dask"]).exit_code == 2
    assert runner.invoke(show, ["--ray-workers", "0"]).exit_code == 2


def test_ray_settings_without_the_ray_executor_are_refused(tmp_path: Path) -> None:
    plan = RunPlan(model="builtin/oracle", tasks=(TaskPlan("demo/arith", {"n": 3}),))
    with pytest.raises(ConfigError, match="need --executor ray"):
        run_plan(plan, tmp_path / "run", RunOptions(progress=False), executor="local", ray_address="auto")
    assert not (tmp_path / "run").exists()


def test_the_local_executor_runs_the_plan(tmp_path: Path) -> None:
    plan = RunPlan(model="builtin/oracle", tasks=(TaskPlan("demo/arith", {"n": 5}),))
    summary = run_plan(plan, tmp_path / "run", RunOptions(progress=False))
    assert summary.complete and summary.tasks["demo/arith"].counts["scored"] == 5
    assert len(list(RunStore(tmp_path / "run").results())) == 5
