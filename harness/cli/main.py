"""The ``frontier`` command. Subcommands are imported only when invoked, so ``--help`` starts fast.

The harness's own subcommands are in :mod:`harness.cli.commands`; task families and other packages add
theirs through the ``frontier.commands`` entry-point group, so this module names none of them.
"""

from __future__ import annotations

import logging
import sys
from functools import cached_property
from typing import NoReturn

import click

from harness import __version__
from harness.cli.commands import BUILTIN_COMMANDS, LazyCommand, all_commands, help_line
from harness.logs import LEVELS, configure_logging, level_for

EPILOG = """\b
Examples:
  frontier run --task demo/arith --model builtin/oracle --limit 20
  frontier run --suite smoke --model openai/gpt-4o-mini --concurrency 16
  frontier run --task demo/arith --model openai-compatible/qwen@http://127.0.0.1:8000/v1
  frontier show runs/<run dir>
  frontier list tasks
  frontier -v list tasks   (INFO log lines, e.g. a task family that failed to load)
"""


class LazyGroup(click.Group):
    """A click group whose subcommands are imported on first use."""

    @cached_property
    def declared(self) -> dict[str, LazyCommand | click.Command]:
        """Every subcommand by name, built-in then registered (read once; a built-in is found without it)."""
        return all_commands()

    def list_commands(self, ctx: click.Context) -> list[str]:
        return list(self.declared)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        declared = BUILTIN_COMMANDS.get(name) or self.declared.get(name)
        if declared is None or isinstance(declared, click.Command):
            return declared
        try:
            return declared.load()
        except (ImportError, AttributeError) as exc:
            message = f"'{name}' is unavailable: {type(exc).__name__}: {exc}"
            return click.Command(name, help=f"(unavailable: {exc})", callback=lambda: _fail(message))

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with formatter.section("Commands"):
            formatter.write_dl([(name, help_line(declared)) for name, declared in self.declared.items()])


def _fail(message: str) -> NoReturn:
    click.echo(f"error: {message}", err=True)
    sys.exit(2)


@click.group(cls=LazyGroup, epilog=EPILOG, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="frontier")
@click.option(
    "--log-level",
    type=click.Choice(list(LEVELS), case_sensitive=False),
    default=None,
    help="Log level of the project's messages on stderr (default WARNING).",
)
@click.option("-v", "--verbose", count=True, help="More log messages: -v for INFO, -vv for DEBUG.")
def cli(log_level: str | None, verbose: int) -> None:
    """frontier-evals: evaluate language models on hard, verifiable tasks."""
    configure_logging(level_for(log_level, verbose))


def main(argv: list[str] | None = None) -> object:
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
    except Exception as exc:  # a bug, not an input: one line for the user, the traceback in the debug log
        logging.getLogger("harness.cli").debug("unexpected error", exc_info=True)
        click.echo(f"error: unexpected {type(exc).__name__}: {str(exc)[:500]} (frontier -vv shows where)", err=True)
        sys.exit(1)
