"""``frontier tools ...``: synthesize environments and tasks from a spec."""

from __future__ import annotations

import json

import click


@click.group("tools")
def tools_group() -> None:
    """τ²-style tool-use environments."""


@tools_group.command("synthesize")
@click.argument("spec", type=click.Path(exists=True, dir_okay=False))
@click.option("--seed", "-s", default=0, show_default=True, help="synthesis seed")
@click.option("--tasks", "n_tasks", default=25, show_default=True, help="how many tasks to emit")
@click.option("-o", "--out", "out_dir", required=True, type=click.Path(file_okay=False), help="output folder")
@click.option(
    "--format",
    "out_format",
    type=click.Choice(["tau2", "lookalike"]),
    default="tau2",
    show_default=True,
    help="tau2: a τ² data root (domains/<name>/), run as tau2-synth/<folder>; lookalike: the toolsim format",
)
def synthesize_command(spec: str, seed: int, n_tasks: int, out_dir: str, out_format: str) -> None:
    """Build an environment from SPEC.yaml, test its tools, and write sound tasks to OUT."""
    from tasks.tools.synth.generate import synthesize, write_synthesis
    from tasks.tools.synth.spec import SpecError, load_spec

    try:
        result = synthesize(load_spec(spec), seed=seed, n_tasks=n_tasks)
    except SpecError as exc:
        raise click.ClickException(str(exc)) from None
    if out_format == "tau2":
        from tasks.tau2.synthesized import write_tau2_domain

        folder = write_tau2_domain(result, out_dir)
        click.echo(
            f"wrote τ² domain {folder} (tasks.json, db.json, split_tasks.json, policy.md, spec.json, tools.json); "
            f"run it as --task tau2-synth/{folder}"
        )
    out = write_synthesis(result, out_dir)
    report = result.report
    click.echo(f"tools kept: {len(report['tools_kept'])}; dropped: {len(report['tools_dropped'])}")
    for name, reasons in report["tools_dropped"].items():
        click.echo(f"  dropped {name}: {reasons[0] if reasons else 'failed'}")
    edges = sum(len(v) for v in report["dependency_graph"].values())
    click.echo(f"dependency edges: {edges}; tasks: {report['tasks']} (chains rejected: {report['chains_rejected']})")
    click.echo(f"wrote {out}/tasks.json, db.json, report.json, spec.json")
    if report["tasks"] < n_tasks:
        click.echo(json.dumps({"warning": f"only {report['tasks']} of {n_tasks} tasks could be synthesized"}))
