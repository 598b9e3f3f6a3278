"""Whether the Hugging Face Hub can be used now: offline mode, or a host that does not answer.

Tasks that read a data set from the hub ask :func:`hub_unavailable` first, so that on a machine
without network they fail at once with the reason instead of after the hub clients' retries
(about 25 s). The host probe is one TCP connection to ``$HF_ENDPOINT`` (default huggingface.co)
with a short timeout, made once per process.
"""

from __future__ import annotations

import functools
import os
import socket
from urllib.parse import urlsplit

PROBE_TIMEOUT_S = 3.0
DEFAULT_ENDPOINT = "https://huggingface.co"
TRUE_VALUES = ("1", "true", "yes", "on")


def offline_mode() -> bool:
    """True when ``HF_HUB_OFFLINE`` or ``HF_DATASETS_OFFLINE`` is true, as the hub libraries read them."""
    flags = (os.environ.get("HF_HUB_OFFLINE", ""), os.environ.get("HF_DATASETS_OFFLINE", ""))
    return any(flag.strip().lower() in TRUE_VALUES for flag in flags)


@functools.cache
def _probe(host: str, port: int) -> str | None:
    try:
        with socket.create_connection((host, port), timeout=PROBE_TIMEOUT_S):
            return None
    except OSError as exc:
        return f"the hub host {host}:{port} does not answer ({exc.strerror or type(exc).__name__})"


def hub_unavailable() -> str | None:
    """Why the hub cannot be used now (offline mode set, or its host unreachable), or None when it can."""
    if offline_mode():
        return "the hub is offline (HF_HUB_OFFLINE/HF_DATASETS_OFFLINE is set)"
    parts = urlsplit(os.environ.get("HF_ENDPOINT") or DEFAULT_ENDPOINT)
    if not parts.hostname:
        return None  # a malformed endpoint: the hub client reports it
    return _probe(parts.hostname, parts.port or (443 if parts.scheme == "https" else 80))
