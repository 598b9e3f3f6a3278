"""``frontier sweep``: one method over a range of total token budgets, one run directory per point."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime
from itertools import pairwise
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from harness.cli.options import call_options, plan_options, settings_options
from harness.errors import ConfigError
from harness.run_options import RunOptions

if TYPE_CHECKING:
    from harness.types import RunSummary

EPILOG = """\b
Examples:
  frontier sweep --task demo/arith --model openai/gpt-4o-mini --method clear --budgets 1e3,3e3,1e4
  frontier sweep --task demo/arith --model M --method clear --method clear:allocator=uniform --budgets 2e3,8e3
  frontier sweep --task demo/arith --model M --method budget --budget-param tokens --budgets 64,256,1024

\b
Each point is an ordinary run directory (<out>/<method>_B<budget>); <out>/sweep.json
lists the points with their accuracy, tokens and cost, for accuracy-versus-tokens curves,
and each step between neighbouring budgets compared item by item as 'frontier compare' does
(difference, 95% CI, Holm-adjusted p over all steps), so a curve shows which steps are real.
Rerunning the same sweep into the same --out resumes every point.
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


def point_summary(spec: str, budget: int, run_dir: Path, summary: RunSummary) -> dict[str, Any]:
    """One sweep point: its method, budget, run directory, accuracy and tokens."""
    tasks = {}
    for name, task in summary.tasks.items():
        accuracy = task.metrics.get("accuracy")
        tasks[name] = {
            "accuracy": accuracy.value if accuracy else None,
            "ci": [accuracy.ci_low, accuracy.ci_high] if accuracy else None,
            "n": accuracy.n if accuracy else 0,
            "total_tokens": task.usage.total_tokens,
            "output_tokens": task.usage.output_tokens,
            "cost_usd": task.cost_usd,
        }
    return {"method": spec, "budget": budget, "run_dir": str(run_dir), "complete": summary.complete, "tasks": tasks}


def step_comparisons(points: list[dict[str, Any]], seed: int) -> list[dict[str, Any]]:
    """Each method's neighbouring budgets compared item by item (``frontier compare``), Holm over every step.

    A step that cannot be compared (no item scored by both, say) says why instead of failing the sweep.
    """
    from harness.compare import CompareError, adjust, compare_runs

    steps: list[dict[str, Any]] = []
    for low, high in pairwise(points):
        if low["method"] != high["method"]:
            continue
        step: dict[str, Any] = {"method": low["method"], "from": low["budget"], "to": high["budget"]}
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
    head = f"{step['method']} B={step['from']} -> B={step['to']}:"
    if "tasks" not in step:
        return f"{head} not compared ({step['not_compared']})"
    parts = [
        f"{name} {row['diff']:+.4f} [{row['ci'][0]:+.4f}, {row['ci'][1]:+.4f}] p={row['p_adjusted']:.3g} (Holm)"
        if "diff" in row
        else f"{name}: no item scored by both"
        for name, row in step["tasks"].items()
    ]
    return f"{head} " + "; ".join(parts)


@click.command("sweep", epilog=EPILOG)
@plan_options(required=True)
@click.option(
    "--method",
    "methods",
    multiple=True,
    required=True,
    metavar="NAME[:k=v,...]",
    help="Method to sweep; repeat to sweep several (e.g. clear and clear:allocator=uniform).",
)
@click.option("--budgets", required=True, help="Comma-separated total budgets in tokens: 1e3,3e3,1e4.")
@click.option(
    "--budget-param",
    default="budget",
    show_default=True,
    help="The method parameter the budget is given as (budget for clear, tokens for budget).",
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
    budgets: str,
    budget_param: str,
    out: Path | None,
    overrides: dict[str, object],
    run_options: RunOptions,
) -> None:
    """Run methods over a range of total token budgets, one run directory per point."""
    from harness.cli.options import parse_key_values, parse_option_values, path_slug
    from harness.cli.run import build_plan
    from harness.registry import resolve_method
    from harness.runner import execute

    points = parse_budgets(budgets)
    stamp = datetime.now(UTC).strftime("%Y-%m-%dT%H-%M-%S")
    out_dir = out or Path("runs") / f"sweep_{stamp}_{path_slug(tasks[0])}"
    task_args = parse_key_values(task_arg, "-T")
    model_options = parse_option_values(model_option)
    specs = [(spec, budget, with_budget(spec, budget_param, budget)) for spec in methods for budget in points]
    plans = [
        (spec, budget, build_plan(None, tasks, model, (full,), task_args, limit, seed, overrides, model_options))
        for spec, budget, full in specs
    ]
    for _, _, full in specs:
        resolve_method(full)
    index: list[dict[str, Any]] = []
    for spec, budget, plan in plans:
        run_dir = out_dir / f"{path_slug(spec)}_B{budget}"
        summary = asyncio.run(execute(plan, run_dir, run_options))
        index.append(point_summary(spec, budget, run_dir, summary))
        first_task: dict[str, Any] = next(iter(index[-1]["tasks"].values()), {})
        accuracy = first_task.get("accuracy")
        click.echo(f"{spec} B={budget}: accuracy {accuracy if accuracy is not None else 'n/a'} -> {run_dir}")
    steps = step_comparisons(index, seed)
    for step in steps:
        click.echo(step_line(step))
    out_dir.mkdir(parents=True, exist_ok=True)
    document = {"model": model, "tasks": list(tasks), "budget_param": budget_param, "points": index, "steps": steps}
    (out_dir / "sweep.json").write_text(json.dumps(document, indent=1))
    click.echo(f"sweep index: {out_dir / 'sweep.json'}")
