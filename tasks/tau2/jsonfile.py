"""The one reader of the untrusted JSON files the τ² tasks load (task files, databases, synthesized domains).

Size-capped, UTF-8, and with the nesting depth decided on the text by ``harness.json_input``
(linear time, independent of the recursion limit and of the caller's stack), so that neither the
parser nor a schema validating the result can hit a ``RecursionError``.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from harness.api import JsonInputError, read_json

MAX_JSON_FILE_BYTES = 64 * 1024 * 1024


def read_json_file(path: Path, error: Callable[[str], Exception], max_bytes: int = MAX_JSON_FILE_BYTES) -> object:
    """``path`` parsed; ``error(message)`` raised, naming the file and what is wrong, when it cannot be."""
    try:
        return read_json(path, max_bytes)
    except JsonInputError as exc:
        raise error(str(exc)) from None
