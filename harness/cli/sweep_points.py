"""The points of ``frontier sweep``: each method at each token budget, or each configuration of a grid.

A point carries its run plan (the budget set as the method's parameter, or the grid's request options and
engine configuration), its run directory under the sweep's, and the engine command it is run in, if any.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from harness.errors import ConfigError

if TYPE_CHECKING:
    from harness.plan import RunPlan


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
