"""How batches are gathered, polled and bounded: defaults, overridable through ``$FRONTIER_BATCH_*``."""

from __future__ import annotations

import os
from dataclasses import dataclass

from harness.errors import ConfigError

ENV_PREFIX = "FRONTIER_BATCH_"


def _env_number(name: str, default: float, minimum: float) -> float:
    """``$FRONTIER_BATCH_<name>`` as a number of at least ``minimum``, else ``default``; bad: a ConfigError."""
    key = ENV_PREFIX + name
    raw = os.environ.get(key)
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{key} must be a number, got {raw!r}") from None
    if value < minimum:
        raise ConfigError(f"{key} must be at least {minimum:g}, got {raw}")
    return value


@dataclass(frozen=True)
class BatchConfig:
    """Gathering, polling and size bounds of batches.

    ``gather_s``: a batch is submitted once no request joined it for this long, or its first request
    has waited ``max_gather_s``, or it is full.
    ``poll_s`` .. ``max_poll_s``: the first wait between status polls, growing by ``poll_factor``.
    ``max_requests`` / ``max_bytes``: the most per batch, below the provider's own limits.
    ``max_resubmits``: how often a request without an answer (its batch expired) is sent again.
    """

    gather_s: float = 2.0
    max_gather_s: float = 60.0
    poll_s: float = 10.0
    poll_factor: float = 1.5
    max_poll_s: float = 300.0
    max_requests: int = 1_000_000
    max_bytes: int = 1 << 40
    max_resubmits: int = 3

    @classmethod
    def from_env(cls) -> BatchConfig:
        """The defaults, each replaced by ``$FRONTIER_BATCH_GATHER_S``, ``_MAX_GATHER_S``, ``_POLL_S``,
        ``_MAX_POLL_S``, ``_MAX_REQUESTS``, ``_MAX_BYTES`` or ``_MAX_RESUBMITS`` when set."""
        return cls(
            gather_s=_env_number("GATHER_S", cls.gather_s, 0.0),
            max_gather_s=_env_number("MAX_GATHER_S", cls.max_gather_s, 0.0),
            poll_s=_env_number("POLL_S", cls.poll_s, 0.001),
            max_poll_s=_env_number("MAX_POLL_S", cls.max_poll_s, 0.001),
            max_requests=int(_env_number("MAX_REQUESTS", cls.max_requests, 1)),
            max_bytes=int(_env_number("MAX_BYTES", cls.max_bytes, 1024)),
            max_resubmits=int(_env_number("MAX_RESUBMITS", cls.max_resubmits, 0)),
        )
