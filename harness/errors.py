"""Exceptions of the harness, each meaning one kind of failure."""


class FrontierError(Exception):
    """Base of the harness's own errors; the CLI prints them without a traceback."""


class ConfigError(FrontierError):
    """A user-supplied configuration is wrong: a name, an argument, a suite file, a run directory."""


class AdapterError(FrontierError):
    """A model call failed for good (bad request, authentication, malformed answer)."""


class TransientError(AdapterError):
    """A model call failed in a way worth retrying: 429, 5xx, a timeout, a dropped connection."""


class MissingCapability(ConfigError):
    """An adapter lacks a capability that a method or task needs."""
