"""How a run executes (concurrency, retries, timeout, cache, progress): the defaults the CLI shows.

None of it changes results, so none of it is in a run's config. Kept free of heavy imports,
so that command-line options can take their defaults from here at import time.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_TIMEOUT_S = 600.0


@dataclass(frozen=True)
class RetryPolicy:
    """Exponential backoff with full jitter, on transient failures only, capped in count and delay.

    A failure raised as transient whose message says it is permanent (a missing API key
    that litellm reports as a 500, say; see :func:`harness.failures.is_permanent`) is not retried.
    """

    max_retries: int = 6
    base_delay_s: float = 1.0
    max_delay_s: float = 30.0

    def delay(self, attempt: int, rng: random.Random) -> float:
        """Seconds to wait before retry number ``attempt`` (0-based)."""
        return rng.uniform(0, min(self.max_delay_s, self.base_delay_s * 2**attempt))


@dataclass(frozen=True)
class RunOptions:
    """How a run executes: ``concurrency`` samples in flight, and as many requests in flight per adapter.

    :meth:`harness.calls.CallSettings.of_run` turns them into how each model call is made.
    With ``batch_dir`` (the run directory) the run batches (:mod:`harness.batch`): every adapter
    that can with ``batch_all`` (``--batch``), else those given ``-M batch=true``.
    """

    concurrency: int = 8
    retry: RetryPolicy = field(default_factory=RetryPolicy)
    request_timeout_s: float | None = DEFAULT_TIMEOUT_S
    cache_path: Path | None = None
    force_cache: bool = False
    progress: bool = True
    retry_errors: bool = False
    batch_dir: Path | None = None
    batch_all: bool = False
