"""The ``frontier`` command. Subcommands are imported only when invoked, so ``--help`` starts fast."""

from __future__ import annotations

import importlib
import sys
from typing import Any

import click

from harness import __version__

SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "run": ("harness.cli.run:run_command", "Run a suite or tasks against a model into a run directory."),
    "list": ("harness.cli.listing:list_command", "List tasks, adapters, methods or suites."),
    "show": ("harness.cli.show:show_command", "Print the summary table of a run."),
    "rescore": ("harness.cli.rescore:rescore_command", "Re-score a run's log with the current scorers."),
    "import": ("harness.cli.import_outputs:import_command", "Import outputs produced elsewhere as a scored run."),
    "sweep": ("harness.cli.sweep:sweep_command", "Run methods over a range of total token budgets, one run per point."),
    "data": ("harness.cli.data:data_group", "Download the public data sets some tasks need (frontier data get)."),
    "serve": ("harness.cli.serve:serve_command", "Serve any model spec over an OpenAI-compatible HTTP API."),
    "export": ("harness.cli.export:export_group", "Export suite tasks for other harnesses (lm-eval)."),
    "coins": ("coins_rocq.cli:coins_group", "Check Rocq specifications (Coins)."),
    "tools": ("tasks.tools.cli:tools_group", "Tool-use environments: synthesize domains."),
    "submit": ("leaderboard.cli:submit_command", "Build a leaderboard submission from runs."),
    "leaderboard": ("leaderboard.cli:leaderboard_group", "Validate submissions and build the static site."),
    "report": ("leaderboard.cli:report_command", "Build the static HTML report of one or more runs."),
}

EPILOG = """\b
Examples:
  frontier run --task demo/arith --model builtin/oracle --limit 20
  frontier run --suite smoke --model openai/gpt-4o-mini --concurrency 16
  frontier run --task demo/arith --model openai-compatible/qwen@http://127.0.0.1:8000/v1
  frontier show runs/<run dir>
  frontier list tasks
"""


class LazyGroup(click.Group):
    """A click group whose subcommands are imported on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(SUBCOMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name not in SUBCOMMANDS:
            return None
        module, _, attribute = SUBCOMMANDS[name][0].partition(":")
        try:
            return getattr(importlib.import_module(module), attribute)
        except (ImportError, AttributeError) as exc:
            return click.Command(
                name, help=f"(unavailable: {exc})", callback=lambda: _fail(f"'{name}' is unavailable: {exc}")
            )

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section("Commands"):
            formatter.write_dl([(name, help_text) for name, (_, help_text) in SUBCOMMANDS.items()])


def _fail(message: str) -> None:
    click.echo(f"error: {message}", err=True)
    sys.exit(2)


@click.group(cls=LazyGroup, epilog=EPILOG, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="frontier")
def cli() -> None:
    """frontier-evals: evaluate language models on hard, verifiable tasks."""


def main(argv: list[str] | None = None) -> Any:
    """Entry point of the console script; harness errors print as one line and exit 2."""
    from harness.errors import FrontierError

    try:
        return cli.main(args=argv, prog_name="frontier", standalone_mode=False)
    except click.exceptions.Abort:
        click.echo("aborted", err=True)
        sys.exit(130)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except FrontierError as exc:
        _fail(str(exc))
    except KeyboardInterrupt:
        click.echo("interrupted: what was logged is kept; rerun the same command to resume", err=True)
        sys.exit(130)
