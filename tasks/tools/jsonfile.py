"""The one reader of the untrusted JSON files the tool-use tasks load (τ² task files, databases, specs).

Size-capped, UTF-8, and with the nesting depth decided on the text by ``harness.runlog.json_depth``
(linear time, independent of the recursion limit and of the caller's stack), so that neither the
parser nor a schema validating the result can hit a ``RecursionError``.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from harness.runlog import MAX_JSON_DEPTH, json_depth

MAX_JSON_FILE_BYTES = 64 * 1024 * 1024


def read_json_file(path: Path, error: Callable[[str], Exception], max_bytes: int = MAX_JSON_FILE_BYTES) -> object:
    """``path`` parsed; ``error(message)`` raised, naming the file and what is wrong, when it cannot be."""
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise error(f"{path}: {size} bytes is over the {max_bytes}-byte limit")
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise error(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError as exc:
        raise error(f"{path}: not valid JSON: not UTF-8 ({exc.reason} at byte {exc.start})") from None
    depth = json_depth(text)
    if depth > MAX_JSON_DEPTH:
        raise error(f"{path}: not valid JSON here: nested {depth} deep (at most {MAX_JSON_DEPTH})")
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise error(f"{path}: not valid JSON: {exc}") from None
