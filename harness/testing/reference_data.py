"""Where the benchmarks' reference data lies, for the tests and the benchmark scripts alike."""

from __future__ import annotations

import os
from pathlib import Path

ENV_VAR = "FRONTIER_REFERENCE_DATA"


def reference_data_dir() -> Path:
    """``$FRONTIER_REFERENCE_DATA`` when set, else ``shared/data`` beside the repository (``../shared/data``).

    The folder may be absent; callers check and skip or refuse, saying so.
    """
    configured = os.environ.get(ENV_VAR)
    return Path(configured) if configured else Path(__file__).resolve().parents[2].parent / "shared" / "data"
