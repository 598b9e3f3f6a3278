"""The one log handler of the ``frontier`` command: this project's loggers at the chosen level, to stderr."""

from __future__ import annotations

import logging
import sys

LEVELS = {"DEBUG": logging.DEBUG, "INFO": logging.INFO, "WARNING": logging.WARNING, "ERROR": logging.ERROR}
CORE_PACKAGES = ("harness", "scorers")
"""The harness and its shared scorers; the families' packages are found from what they declare."""
PLUGIN_PREFIX = "frontier."

_HANDLER_NAME = "frontier"


def level_for(log_level: str | None, verbosity: int) -> int:
    """``--log-level`` when given, else WARNING lowered one step per ``-v`` (INFO, then DEBUG)."""
    if log_level is not None:
        return LEVELS[log_level.upper()]
    return max(logging.DEBUG, logging.WARNING - 10 * verbosity)


def project_packages() -> list[str]:
    """The top-level packages whose loggers the level applies to (not third-party ones).

    The core ones, then those of the modules named under a ``frontier.*`` entry-point group
    (task families, methods, subcommands, data sources, import formats, plugins' too).
    """
    from harness.entry_point_files import entries_under

    declared = (entry.value.partition(":")[0].strip().partition(".")[0] for entry in entries_under(PLUGIN_PREFIX))
    return list(dict.fromkeys([*CORE_PACKAGES, *filter(None, declared)]))


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
    for package in project_packages():
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
