"""``frontier run --executor local|ray``: the options and the call that picks where a run executes."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import click

from harness.cli.stop_bound import StopBound
from harness.errors import ConfigError

F = TypeVar("F", bound=Callable[..., Any])


def executor_options(command: F) -> F:
    """Add ``--executor``, ``--ray-address`` and ``--ray-workers`` to a click command."""
    command = click.option(
        "--ray-workers",
        type=click.IntRange(min=1),
        default=None,
        help="Ray worker actors (default: the cluster's CPUs, at most --concurrency).",
    )(command)
    command = click.option(
        "--ray-address",
        metavar="ADDR",
        default=None,
        help="Ray cluster to join (host:port, auto, ray://host:10001); default: start a local one.",
    )(command)
    command = click.option(
        "--executor",
        type=click.Choice(["local", "ray"]),
        default="local",
        show_default=True,
        help="Run in this process, or across a Ray cluster (--concurrency is then the total "
        "over all workers; CPU-heavy scoring runs as Ray tasks).",
    )(command)
    return command


def run_plan(
    plan: Any,
    out_dir: Path,
    options: Any,
    executor: str = "local",
    ray_address: str | None = None,
    ray_workers: int | None = None,
    on_stuck: Callable[[], None] | None = None,
) -> Any:
    """Execute ``plan`` into ``out_dir`` with the chosen executor and return its RunSummary.

    ``on_stuck`` (which must end the process) is called when the run has not stopped within
    :data:`~harness.cli.stop_bound.STOP_GRACE_SECONDS` of a Ctrl-C, or at a second one; without
    it a stopping run takes as long as its cancellation does.
    """
    with StopBound(on_stuck) as bound:
        if executor != "ray":
            if ray_address or ray_workers:
                raise ConfigError("--ray-address and --ray-workers need --executor ray")
            from harness.runner import execute

            return asyncio.run(bound.guard(execute(plan, out_dir, options)))
        return _run_on_ray(plan, out_dir, options, bound, ray_address, ray_workers)


def _run_on_ray(
    plan: Any, out_dir: Path, options: Any, bound: StopBound, ray_address: str | None, ray_workers: int | None
) -> Any:
    try:
        import ray  # noqa: F401
    except ImportError:
        raise ConfigError("--executor ray needs Ray: pip install 'frontier-evals[ray]'") from None
    from harness.executors.ray_executor import execute_on_ray

    return asyncio.run(bound.guard(execute_on_ray(plan, out_dir, options, address=ray_address, workers=ray_workers)))
