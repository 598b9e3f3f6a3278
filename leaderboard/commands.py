"""The leaderboard's ``frontier`` subcommands, declared without importing them (``frontier.commands``)."""

from __future__ import annotations

from harness.cli.commands import LazyCommand

SUBMIT = LazyCommand("Build a leaderboard submission from runs.", "leaderboard.cli:submit_command")
LEADERBOARD = LazyCommand("Validate submissions and build the static site.", "leaderboard.cli:leaderboard_group")
REPORT = LazyCommand("Build the static HTML report of one or more runs.", "leaderboard.cli:report_command")
