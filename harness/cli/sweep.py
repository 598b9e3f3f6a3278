"""``frontier sweep``: one run directory per point of a token-budget range or a configuration grid.

``--budgets`` sweeps a method's total token budget; ``--grid key=v1,v2`` sweeps request-level
parameters (``-M`` options, ``extra_body.*`` fields), and with ``--engine "COMMAND TEMPLATE"`` the
configuration of an inference server started per point (:mod:`harness.engine`). Every point runs
the same items; ``sweep.json`` indexes the points, the frontiers of score against throughput,
latency, tokens and cost (:mod:`harness.sweep_frontier`) and the paired steps between neighbours.
"""

from __future__ import annotations

import signal
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from harness.cli.options import call_options, plan_options, settings_options
from harness.cli.sweep_engine import choose_port, engine_model
from harness.cli.sweep_points import budget_points, grid_points
from harness.cli.sweep_results import point_summary, step_comparisons, step_line
from harness.cli.sweep_runner import PointRunner
from harness.errors import ConfigError
from harness.run_options import RunOptions

if TYPE_CHECKING:
    from harness.plan import RunPlan

EPILOG = """\b
Examples:
  frontier sweep --task demo/arith --model openai/gpt-4o-mini --method clear --budgets 1e3,3e3,1e4
  frontier sweep --task demo/arith --model M --method clear --method clear:allocator=uniform --budgets 2e3,8e3
  frontier sweep --task demo/arith --model M --method budget --budget-param tokens --budgets 64,256,1024
  frontier sweep --task demo/arith --model openai-compatible/dlm@http://127.0.0.1:30000/v1 \\
      --grid extra_body.steps=32,64,128
  frontier sweep --task confiqa-gen/qa -T n=8 --model openai-compatible/smollm \\
      --engine "python -m llama_cpp.server --model M.gguf --port {port} --n_threads {threads}" --grid threads=1,2

\b
Each point is an ordinary run directory (<out>/<method>_B<budget>, or <out>/<k=v_k=v> for a
grid); <out>/sweep.json lists the points with their accuracy, tokens, cost and throughput,
the frontiers of score against output tok/s, latency, tokens and cost (dominated points named),
and each step between neighbouring points, and each trade between neighbouring frontier points,
compared item by item as 'frontier compare' does (difference, 95% CI, Holm-adjusted p), so a
curve shows which steps are real.
A --grid key that is a {placeholder} of --engine configures the server, started per point on
--engine-port ({port}; the model's URL when --model has none) and stopped after it; other keys
are -M options, or extra_body fields as extra_body.NAME. Rerunning the same sweep into the
same --out resumes every point (an engine sweep reuses the port recorded in sweep.json).
"""


@click.command("sweep", epilog=EPILOG)
@plan_options(required=True)
@click.option(
    "--method",
    "methods",
    multiple=True,
    metavar="NAME[:k=v,...]",
    help="Method to sweep; repeat to sweep several (e.g. clear and clear:allocator=uniform).",
)
@click.option("--budgets", help="Comma-separated total budgets in tokens: 1e3,3e3,1e4.")
@click.option(
    "--budget-param",
    default="budget",
    show_default=True,
    help="The method parameter the budget is given as (budget for clear, tokens for budget).",
)
@click.option(
    "--grid",
    multiple=True,
    metavar="KEY=V1,V2",
    help="Sweep every combination: an --engine {placeholder}, an -M option, or extra_body.NAME (repeatable).",
)
@click.option("--engine", metavar="COMMAND", help="Server command template started per point, with {port} and {key}.")
@click.option("--engine-port", type=click.IntRange(1, 65535), help="Port of the engine (default: a free one).")
@click.option(
    "--engine-timeout",
    type=click.FloatRange(min=1),
    default=300.0,
    show_default=True,
    help="Seconds an engine has to become ready.",
)
@click.option("--out", type=click.Path(path_type=Path), help="Sweep directory (default runs/sweep_<time>_<task>).")
@settings_options
@call_options
def sweep_command(
    tasks: tuple[str, ...],
    model: str,
    model_option: tuple[str, ...],
    task_arg: tuple[str, ...],
    limit: int | None,
    seed: int,
    methods: tuple[str, ...],
    budgets: str | None,
    budget_param: str,
    grid: tuple[str, ...],
    engine: str | None,
    engine_port: int | None,
    engine_timeout: float,
    out: Path | None,
    overrides: dict[str, object],
    run_options: RunOptions,
) -> None:
    """Run over token budgets or a grid of configurations (request parameters or engine), one run per point."""
    from harness.cli.options import parse_key_values, parse_option_values, path_slug
    from harness.cli.run import build_plan
    from harness.engine import EngineError
    from harness.sweep_frontier import frontier_lines, frontier_steps, frontiers, step_text

    if bool(budgets) == bool(grid):
        raise ConfigError("give either --budgets (with --method) or --grid KEY=V1,V2")
    if budgets and not methods:
        raise ConfigError("--budgets needs --method, the method whose budget is swept")
    if engine and not grid:
        raise ConfigError("--engine needs --grid, the configurations to start it with")
    stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H-%M-%S")
    out_dir = out or Path("runs") / f"sweep_{stamp}_{path_slug(tasks[0])}"
    port = choose_port(engine, engine_port, out_dir)
    model_spec = engine_model(model, port) if engine else model
    task_args = parse_key_values(task_arg, "-T")
    model_options = parse_option_values(model_option)

    def plan_for(method_specs: tuple[str, ...]) -> RunPlan:
        return build_plan(None, tasks, model_spec, method_specs, task_args, limit, seed, overrides, model_options)

    if budgets:
        points = budget_points(plan_for, methods, budgets, budget_param, out_dir)
    else:
        points = grid_points(plan_for, methods, grid, engine, port, out_dir)
    document: dict[str, Any] = {
        "model": model_spec,
        "tasks": list(tasks),
        **({"budget_param": budget_param} if budgets else {"grid": list(grid)}),
        **({"engine": engine, "engine_port": port} if engine else {}),
        "points": [],
    }
    out_dir.mkdir(parents=True, exist_ok=True)
    runner = PointRunner(run_options, port, engine_timeout, out_dir / "engine-logs")
    previous = signal.signal(signal.SIGTERM, runner.on_sigterm)
    failed = 0
    try:
        for point in points:
            try:
                summary = runner.run(point)
            except EngineError as exc:
                failed += 1
                click.echo(f"error: {exc}", err=True)
                document["points"].append({**point.identity(), "error": str(exc), "tasks": {}})
                _write_index(out_dir, document)
                continue
            document["points"].append(point_summary(point, summary))
            _write_index(out_dir, document)
            first_task: dict[str, Any] = next(iter(document["points"][-1]["tasks"].values()), {})
            accuracy = first_task.get("accuracy")
            name = f"{point.method} {point.label}" if point.method else point.label
            click.echo(f"{name}: accuracy {accuracy if accuracy is not None else 'n/a'} -> {point.run_dir}")
    except KeyboardInterrupt:
        click.echo(
            ("stopped by SIGTERM; " if runner.terminated else "")
            + f"sweep interrupted: finished points are kept in {out_dir}; rerun the same command to resume",
            err=True,
        )
        sys.exit(143 if runner.terminated else 130)
    finally:
        signal.signal(signal.SIGTERM, previous)
    document["steps"] = step_comparisons(document["points"], seed)
    for step in document["steps"]:
        click.echo(step_line(step))
    document["frontiers"] = frontiers(document["points"])
    for line in frontier_lines(document["frontiers"]):
        click.echo(line)
    document["frontier_steps"] = frontier_steps(document["frontiers"], seed)
    for step in document["frontier_steps"]:
        click.echo(step_text(step))
    _write_index(out_dir, document)
    click.echo(f"sweep index: {out_dir / 'sweep.json'}")
    if failed:
        click.echo(f"{failed} of {len(points)} point(s) failed", err=True)
        sys.exit(1)


def _write_index(out_dir: Path, document: dict[str, Any]) -> None:
    """Write ``sweep.json`` (after every point, so an interrupted sweep keeps its index)."""
    from harness.store import write_json_atomic

    write_json_atomic(out_dir / "sweep.json", document)
