"""The families' ``frontier`` subcommands, declared without importing the families (``frontier.commands``)."""

from __future__ import annotations

from harness.cli.commands import LazyCommand

COINS = LazyCommand("Check Rocq specifications (Coins).", "coins_rocq.cli:coins_group")
TOOLS = LazyCommand("Tool-use environments: synthesize domains.", "tasks.tools.cli:tools_group")
