"""``frontier sweep``: one run directory per point of a token-budget range or a configuration grid.

``--budgets`` sweeps a method's total token budget; ``--grid key=v1,v2`` sweeps request-level
parameters (``-M`` options, ``extra_body.*`` fields), and with ``--engine "COMMAND TEMPLATE"`` the
configuration of an inference server started per point (:mod:`harness.engine`). Every point runs
the same items; ``sweep.json`` indexes the points, the frontiers of score against throughput,
latency, tokens and cost (:mod:`harness.sweep_frontier`) and the paired steps between neighbours.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from harness.cli.options import call_options, plan_options, settings_options
from harness.errors import ConfigError
from harness.run_options import RunOptions

if TYPE_CHECKING:
    from harness.engine import Engine
    from harness.plan import RunPlan
    from harness.types import RunSummary

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


def parse_budgets(text: str) -> list[int]:
    """``1e3,3e3,10000`` into whole, positive, distinct token counts in increasing order."""
    budgets = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        try:
            value = float(part.replace("_", ""))
        except ValueError:
            raise ConfigError(f"--budgets: {part!r} is not a number") from None
        if not value.is_integer() or value < 0:
            raise ConfigError(f"--budgets: {part!r} must be a whole, non-negative number of tokens")
        budgets.append(int(value))
    if not budgets:
        raise ConfigError("--budgets needs at least one budget, e.g. --budgets 1e3,3e3,1e4")
    return sorted(set(budgets))


def with_budget(spec: str, parameter: str, budget: int) -> str:
    """The method spec with ``parameter=budget`` set (replacing any value it had)."""
    from harness.method_spec import parse_method_spec

    name, params = parse_method_spec(spec)
    params[parameter] = str(budget)
    return f"{name}:" + ",".join(f"{k}={v}" for k, v in params.items())


def point_summary(point: SweepPoint, summary: RunSummary) -> dict[str, Any]:
    """One sweep point: its method, budget or configuration, run directory, accuracy, tokens and throughput."""
    tasks = {}
    for name, task in summary.tasks.items():
        accuracy = task.metrics.get("accuracy")
        tasks[name] = {
            "accuracy": accuracy.value if accuracy else None,
            "ci": [accuracy.ci_low, accuracy.ci_high] if accuracy else None,
            "n": accuracy.n if accuracy else 0,
            "total_tokens": task.usage.total_tokens,
            "output_tokens": task.usage.output_tokens,
            "cost_usd": task.cost_usd if task.cost_known else None,
            "throughput": task.throughput,
        }
    return {**point.identity(), "complete": summary.complete, "tasks": tasks}


def _position(point: dict[str, Any]) -> int | str:
    """Where a point sits in its sweep: its budget, or its configuration's label."""
    return point["budget"] if point["budget"] is not None else point["label"]


def step_comparisons(points: list[dict[str, Any]], seed: int) -> list[dict[str, Any]]:
    """Each method's neighbouring budgets compared item by item (``frontier compare``), Holm over every step.

    A step that cannot be compared (no item scored by both, say) says why instead of failing the sweep.
    """
    from harness.compare import CompareError, adjust, compare_runs

    steps: list[dict[str, Any]] = []
    for low, high in pairwise(points):
        if low["method"] != high["method"] or "error" in low or "error" in high:
            continue
        step: dict[str, Any] = {"method": low["method"], "from": _position(low), "to": _position(high)}
        try:
            pair = compare_runs([Path(low["run_dir"]), Path(high["run_dir"])], seed=seed)["pairs"][0]
            step["tasks"] = pair["tasks"]
        except CompareError as exc:
            step["not_compared"] = str(exc)
        steps.append(step)
    adjust([step for step in steps if "tasks" in step], "holm")
    return steps


def step_line(step: dict[str, Any]) -> str:
    """One step of the sweep in words: each task's change with its CI and Holm-adjusted p-value."""
    low, high = (f"B={step[end]}" if isinstance(step[end], int) else step[end] for end in ("from", "to"))
    head = f"{step['method'] + ' ' if step['method'] else ''}{low} -> {high}:"
    if "tasks" not in step:
        return f"{head} not compared ({step['not_compared']})"
    parts = [
        f"{name} {row['diff']:+.4f} [{row['ci'][0]:+.4f}, {row['ci'][1]:+.4f}] p={row['p_adjusted']:.3g} (Holm)"
        if "diff" in row
        else f"{name}: no item scored by both"
        for name, row in step["tasks"].items()
    ]
    return f"{head} " + "; ".join(parts)


@dataclass
class SweepPoint:
    """One point of a sweep: what it varies, its plan and run directory, and the engine it needs."""

    method: str | None
    budget: int | None
    config: dict[str, str]
    plan: RunPlan
    run_dir: Path
    engine: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        """``B=<budget>`` or the configuration's ``k=v`` pairs."""
        return f"B={self.budget}" if self.budget is not None else " ".join(f"{k}={v}" for k, v in self.config.items())

    def identity(self) -> dict[str, Any]:
        """What sweep.json says the point is."""
        return {
            "method": self.method,
            "budget": self.budget,
            "label": self.label,
            "config": self.config,
            **({"engine": self.engine} if self.engine else {}),
            "run_dir": str(self.run_dir),
        }


def budget_points(
    plan_for: Callable[[tuple[str, ...]], RunPlan],
    methods: tuple[str, ...],
    budgets: str,
    budget_param: str,
    out_dir: Path,
) -> list[SweepPoint]:
    """The points of a budget sweep: each method at each budget."""
    from harness.cli.options import path_slug
    from harness.registry import resolve_method

    points = []
    for spec in methods:
        for budget in parse_budgets(budgets):
            full = with_budget(spec, budget_param, budget)
            resolve_method(full)
            run_dir = out_dir / f"{path_slug(spec)}_B{budget}"
            points.append(SweepPoint(spec, budget, {}, plan_for((full,)), run_dir))
    return points


def grid_points(
    plan_for: Callable[[tuple[str, ...]], RunPlan],
    methods: tuple[str, ...],
    grid: tuple[str, ...],
    engine: str | None,
    port: int,
    out_dir: Path,
) -> list[SweepPoint]:
    """The points of a grid sweep: each method (or none) at each configuration, with its engine command."""
    from harness.cli.options import path_slug
    from harness.engine import engine_command, template_keys
    from harness.registry import resolve_method
    from harness.sweep_grid import engine_values, parse_grid, request_options

    configs = parse_grid(grid)
    engine_keys = template_keys(engine) - {"port"} if engine else set()
    points = []
    for spec in methods or (None,):
        if spec:
            resolve_method(spec)
        for config in configs:
            command = engine_command(engine, port, engine_values(config, engine_keys)) if engine else []
            plan = plan_for((spec,) if spec else ())
            plan = replace(
                plan,
                model_options=request_options(config, engine_keys, plan.model_options),
                engine={"config": config.values, **({"command": command} if command else {})},
            )
            name = path_slug(f"{spec}_{config.label}" if spec else config.label.replace(" ", "_"))
            points.append(SweepPoint(spec, None, config.values, plan, out_dir / name, command))
    names = [point.run_dir for point in points]
    if len(set(names)) != len(names):
        for index, point in enumerate(points):
            point.run_dir = point.run_dir.with_name(f"{index:03d}_{point.run_dir.name}")
    return points


def engine_model(model: str, port: int) -> str:
    """The model spec pointed at the engine: its ``{port}`` filled in, or the engine's URL added."""
    if "{port}" in model:
        return model.replace("{port}", str(port))
    if model.startswith("openai-compatible/") and "@" not in model:
        return f"{model}@http://127.0.0.1:{port}/v1"
    raise ConfigError(
        "--engine needs --model openai-compatible/NAME (the engine's URL is added) "
        "or a URL with {port}, e.g. openai-compatible/NAME@http://127.0.0.1:{port}/v1"
    )


def choose_port(engine: str | None, asked: int | None, out_dir: Path) -> int:
    """The port of an engine sweep: ``--engine-port``, else the one the sweep in ``out_dir`` used, else a free one.

    0 for a sweep without an engine.
    """
    from harness.engine import free_port
    from harness.json_input import JsonInputError, parse_json

    if not engine:
        if asked is not None:
            raise ConfigError("--engine-port needs --engine")
        return 0
    if asked is not None:
        return asked
    try:
        recorded = parse_json((out_dir / "sweep.json").read_text(), "sweep.json").get("engine_port")
    except (OSError, JsonInputError, AttributeError):
        recorded = None
    return recorded if isinstance(recorded, int) and 0 < recorded < 65536 else free_port()


class PointRunner:
    """Runs sweep points one after another, each in its engine when it has one, stopping cleanly on Ctrl-C.

    SIGTERM stops the sweep as Ctrl-C does. A run that takes more than the stop bound to stop
    (:class:`~harness.cli.stop_bound.StopBound`) is abandoned: its engine is killed and the process ends.
    """

    def __init__(self, options: RunOptions, port: int, ready_timeout_s: float, logs: Path) -> None:
        self.options = options
        self.port = port
        self.ready_timeout_s = ready_timeout_s
        self.logs = logs
        self.engine: Engine | None = None
        self.terminated = False

    def run(self, point: SweepPoint) -> RunSummary:
        """Execute ``point``'s plan into its run directory (in its engine); EngineError when the engine fails."""
        from harness.cli.stop_bound import StopBound
        from harness.engine import Engine
        from harness.runner import execute

        with StopBound(self._end_stuck) as bound:
            if not point.engine:
                return asyncio.run(bound.guard(execute(point.plan, point.run_dir, self.options)))
            log = self.logs / f"{point.run_dir.name}.log"
            self.engine = Engine(point.engine, self.port, log, point.label, self.ready_timeout_s)
            try:
                with self.engine:
                    return asyncio.run(bound.guard(execute(point.plan, point.run_dir, self.options)))
            finally:
                self.engine = None

    def on_sigterm(self, _signum: int, _frame: object) -> None:
        """SIGTERM: stop as Ctrl-C does."""
        self.terminated = True
        signal.raise_signal(signal.SIGINT)

    def _end_stuck(self) -> None:
        """The run did not stop within the bound (or a second Ctrl-C came): kill its engine and end now."""
        if self.engine is not None:
            self.engine.stop(grace_s=1.0)
        click.echo("sweep still stopping after Ctrl-C: ended now; rerun the same command to resume", err=True)
        sys.stderr.flush()
        os._exit(143 if self.terminated else 130)


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
