"""The one log handler of the ``frontier`` command: this project's loggers at the chosen level, to stderr."""

from __future__ import annotations

import logging
import sys

LEVELS = {"DEBUG": logging.DEBUG, "INFO": logging.INFO, "WARNING": logging.WARNING, "ERROR": logging.ERROR}
PROJECT_PACKAGES = ("harness", "tasks", "scorers", "coins_rocq", "leaderboard")
"""The top-level packages of this distribution, whose loggers the level applies to (not third-party ones)."""

_HANDLER_NAME = "frontier"


def level_for(log_level: str | None, verbosity: int) -> int:
    """``--log-level`` when given, else WARNING lowered one step per ``-v`` (INFO, then DEBUG)."""
    if log_level is not None:
        return LEVELS[log_level.upper()]
    return max(logging.DEBUG, logging.WARNING - 10 * verbosity)


def configure_logging(level: int) -> None:
    """Install the handler once (on the root logger, so plugins' records show too) and set the project's level."""
    root = logging.getLogger()
    handler = next((h for h in root.handlers if h.get_name() == _HANDLER_NAME), None)
    if handler is None:
        handler = logging.StreamHandler(sys.stderr)
        handler.set_name(_HANDLER_NAME)
        handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
        root.addHandler(handler)
    handler.setLevel(level)
    root.setLevel(max(level, logging.WARNING))
    for package in PROJECT_PACKAGES:
        logging.getLogger(package).setLevel(level)
