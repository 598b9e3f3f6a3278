"""``frontier tools ...``: synthesize a tool-use domain and its tasks from a spec, in τ²'s format."""

from __future__ import annotations

import json

import click


@click.group("tools")
def tools_group() -> None:
    """Tool-use environments (τ²-bench's format)."""


@tools_group.command("synthesize")
@click.argument("spec", type=click.Path(exists=True, dir_okay=False))
@click.option("--seed", "-s", default=0, show_default=True, help="synthesis seed")
@click.option("--tasks", "n_tasks", default=25, show_default=True, help="how many tasks to emit")
@click.option("-o", "--out", "out_dir", required=True, type=click.Path(file_okay=False), help="output folder")
def synthesize_command(spec: str, seed: int, n_tasks: int, out_dir: str) -> None:
    """Build an environment from SPEC.yaml, test its tools, and write sound tasks to OUT as a τ² data root."""
    from harness.api import ConfigError
    from tasks.tau2.synth.generate import synthesize, write_domain
    from tasks.tau2.synth.spec import SpecError, load_spec

    try:
        result = synthesize(load_spec(spec), seed=seed, n_tasks=n_tasks)
    except (SpecError, ConfigError) as exc:
        raise click.ClickException(str(exc)) from None
    folder = write_domain(result, out_dir)
    report = result.report
    click.echo(f"tools kept: {len(report['tools_kept'])}; dropped: {len(report['tools_dropped'])}")
    for name, reasons in report["tools_dropped"].items():
        click.echo(f"  dropped {name}: {reasons[0] if reasons else 'failed'}")
    edges = sum(len(v) for v in report["dependency_graph"].values())
    click.echo(f"dependency edges: {edges}; tasks: {report['tasks']} (chains rejected: {report['chains_rejected']})")
    click.echo(
        f"wrote τ² domain {folder} (tasks.json, db.json, split_tasks.json, policy.md, spec.json, tools.json, "
        f"report.json); run it as --task tau2-synth/{folder}"
    )
    if report["tasks"] < n_tasks:
        click.echo(json.dumps({"warning": f"only {report['tasks']} of {n_tasks} tasks could be synthesized"}))
