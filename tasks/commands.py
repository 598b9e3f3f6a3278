"""The families' ``frontier`` subcommands, declared without importing the families (``frontier.commands``)."""

from __future__ import annotations

from harness.api import LazyCommand

COINS = LazyCommand("Check Rocq specifications (Coins).", "coins_rocq.cli:coins_group")
TOOLS = LazyCommand("Tool-use environments: synthesize τ² domains from a spec.", "tasks.tau2.synth.cli:tools_group")
