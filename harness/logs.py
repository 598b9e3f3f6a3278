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


def _handler() -> logging.Handler:
    """The one handler on the root logger (so plugins' records show too), installed on first use at WARNING."""
    root = logging.getLogger()
    handler = next((h for h in root.handlers if h.get_name() == _HANDLER_NAME), None)
    if handler is None:
        handler = logging.StreamHandler(sys.stderr)
        handler.set_name(_HANDLER_NAME)
        handler.setFormatter(logging.Formatter("%(levelname)s %(name)s: %(message)s"))
        handler.setLevel(logging.WARNING)
        root.addHandler(handler)
    return handler


def configure_logging(level: int) -> None:
    """Install the handler once and set the project's loggers (and the handler) to ``level``."""
    _handler().setLevel(level)
    logging.getLogger().setLevel(max(level, logging.WARNING))
    for package in PROJECT_PACKAGES:
        logging.getLogger(package).setLevel(level)


def show_from(logger_name: str, level: int) -> None:
    """Let ``logger_name``'s records from ``level`` up through the one handler, whatever the chosen level.

    For a command whose INFO lines are its output (``frontier serve``'s request lines); other
    loggers keep their level. The handler is installed when :func:`configure_logging` has not run.
    """
    handler = _handler()
    logger = logging.getLogger(logger_name)
    logger.setLevel(min(logger.getEffectiveLevel(), level))
    handler.setLevel(min(handler.level, level))
