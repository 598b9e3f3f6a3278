"""Subcommands of ``frontier`` as importable declarations: a name, a one-line help and where it lives.

The harness's own subcommands are listed here; families and other packages add theirs through
the ``frontier.commands`` entry-point group, each entry naming a :class:`LazyCommand` (kept in a
module that imports nothing heavy, so that ``frontier --help`` stays fast) or a click command.
"""

from __future__ import annotations

import importlib
import logging
from dataclasses import dataclass

import click

log = logging.getLogger(__name__)

COMMAND_GROUP = "frontier.commands"


@dataclass(frozen=True)
class LazyCommand:
    """A subcommand imported on first use: its one-line help and ``module:attribute`` of the click command."""

    help: str
    target: str

    def load(self) -> click.Command:
        """Import the click command; ImportError or AttributeError when the target is missing."""
        module, _, attribute = self.target.partition(":")
        command = getattr(importlib.import_module(module), attribute)
        if not isinstance(command, click.Command):
            raise AttributeError(f"{self.target} is not a click command")
        return command


BUILTIN_COMMANDS: dict[str, LazyCommand] = {
    "run": LazyCommand("Run a suite or tasks against a model into a run directory.", "harness.cli.run:run_command"),
    "list": LazyCommand("List tasks, adapters, methods or suites.", "harness.cli.listing:list_command"),
    "show": LazyCommand("Print the summary table of a run.", "harness.cli.show:show_command"),
    "compare": LazyCommand(
        "Compare runs of the same tasks item by item: paired difference, CI and p-value.",
        "harness.cli.compare:compare_command",
    ),
    "rescore": LazyCommand("Re-score a run's log with the current scorers.", "harness.cli.rescore:rescore_command"),
    "import": LazyCommand(
        "Import outputs produced elsewhere as a scored run.", "harness.cli.import_outputs:import_command"
    ),
    "sweep": LazyCommand(
        "Run methods over a range of total token budgets, one run per point.", "harness.cli.sweep:sweep_command"
    ),
    "data": LazyCommand(
        "Download the public data sets some tasks need (frontier data get).", "harness.cli.data:data_group"
    ),
    "serve": LazyCommand("Serve any model spec over an OpenAI-compatible HTTP API.", "harness.cli.serve:serve_command"),
    "export": LazyCommand("Export suite tasks for other harnesses (lm-eval).", "harness.cli.export:export_group"),
}


def plugin_commands() -> dict[str, LazyCommand | click.Command]:
    """Subcommands registered under ``frontier.commands``; a built-in name or a bad entry is skipped with a warning.

    The group is read with :func:`harness.entry_point_files.group_entries`, which skips
    importlib.metadata's scan of every installed distribution (``frontier --help`` reads it).
    """
    from harness.entry_point_files import group_entries

    found: dict[str, LazyCommand | click.Command] = {}
    for point in group_entries(COMMAND_GROUP):
        if point.name in BUILTIN_COMMANDS:
            log.warning("command plugin %r ignored: the name is built in", point.name)
            continue
        try:
            declared = point.load()
        except Exception as exc:
            found[point.name] = LazyCommand(f"(unavailable: {type(exc).__name__}: {exc})", point.value)
            log.info("command %s failed to load from %s: %s", point.name, point.value, exc)
            continue
        if isinstance(declared, LazyCommand | click.Command):
            found[point.name] = declared
        else:
            log.warning("command plugin %r ignored: %s is neither a LazyCommand nor a click command", point.name, point)
    return found


def all_commands() -> dict[str, LazyCommand | click.Command]:
    """The built-in subcommands, then the registered ones, in that order."""
    return {**BUILTIN_COMMANDS, **plugin_commands()}


def help_line(declared: LazyCommand | click.Command) -> str:
    """The one-line help shown in ``frontier --help``."""
    if isinstance(declared, LazyCommand):
        return declared.help
    return declared.get_short_help_str(limit=120)
