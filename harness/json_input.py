"""The one reader of untrusted JSON: run files, submissions, imports, request bodies, replies, case files.

Whatever the document holds, reading it either succeeds or raises :class:`JsonInputError` (or the
subclass a caller names) with one line saying where and what is wrong: bad syntax, text that is not
UTF-8, nesting deeper than :data:`MAX_JSON_DEPTH` (decided on the text, in linear time, so the
answer depends neither on the recursion limit nor on the caller's stack), a number too long to
read (Python refuses integers over 4,300 digits), a file over its size limit. A lone UTF-16
surrogate (``"\\ud800"``, which UTF-8 cannot encode and so no file or page could be written with)
is kept as its escape text (:func:`harness.types.escape_lone_surrogates`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from itertools import accumulate
from pathlib import Path
from typing import Any

from harness.errors import ConfigError

MAX_JSON_DEPTH = 100
"""The deepest nesting accepted in an untrusted JSON document (run files, submissions): far beyond
any real one, far below the depth at which a recursive reader would raise ``RecursionError``."""

_JSON_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_BRACKET_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")


class JsonInputError(ConfigError, ValueError):
    """An untrusted JSON document cannot be read; the message names it and says why, on one line.

    ``syntax`` is True for bad JSON syntax (a body cut short, say), False for well-formed JSON this
    reader refuses (too deep, a number too long, too large).
    """

    def __init__(self, message: str, syntax: bool = False) -> None:
        super().__init__(message)
        self.syntax = syntax


def json_depth(text: str) -> int:
    """How deeply ``text``'s arrays and objects nest (brackets inside strings ignored), in linear time.

    Decided on the text, so the answer does not depend on the interpreter's recursion limit or on
    how deep the caller's stack is, as a ``RecursionError`` from the parser would.
    """
    brackets = _NOT_BRACKET.sub("", _JSON_STRING.sub("", text))
    return max(accumulate(map(_BRACKET_STEP.__getitem__, brackets)), default=0)


def _escaped(value: Any) -> Any:
    """``value`` with its strings' lone surrogates escaped; containers are changed in place, so a hook
    that remembered an object by its ``id`` still finds it."""
    from harness.types import escape_lone_surrogates

    if isinstance(value, str):
        return escape_lone_surrogates(value)
    if isinstance(value, dict):
        items = [(escape_lone_surrogates(key), _escaped(item)) for key, item in value.items()]
        value.clear()
        value.update(items)
    elif isinstance(value, list):
        value[:] = [_escaped(item) for item in value]
    return value


def parse_json(
    text: str | bytes,
    origin: str,
    error: type[JsonInputError] = JsonInputError,
    object_pairs_hook: Callable[[list[tuple[str, Any]]], Any] | None = None,
    parse_constant: Callable[[str], Any] | None = None,
) -> Any:
    """``text`` parsed; ``error`` naming ``origin`` (a file, ``line 3 of x.jsonl``, ``the request body``) when it
    cannot be. The hooks are :func:`json.loads`'s."""
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError as exc:
            message = f"{origin}: not valid JSON: not UTF-8 ({exc.reason} at byte {exc.start})"
            raise error(message, syntax=True) from None
    depth = json_depth(text)
    if depth > MAX_JSON_DEPTH:
        raise error(f"{origin}: not valid JSON here: nested too deeply (nested {depth} deep, at most {MAX_JSON_DEPTH})")
    try:
        value = json.loads(text, object_pairs_hook=object_pairs_hook, parse_constant=parse_constant)
    except json.JSONDecodeError as exc:
        raise error(f"{origin}: not valid JSON: {exc}", syntax=True) from None
    except ValueError as exc:  # int(): "Exceeds the limit (4300 digits) for integer string conversion ..."
        raise error(f"{origin}: not readable JSON: a number too long ({str(exc).split(';')[0]})") from None
    except RecursionError:
        raise error(f"{origin}: not valid JSON here: nested too deeply") from None
    return _escaped(value) if _SURROGATE_ESCAPE.search(text) else value


def read_json(path: Path, max_bytes: int, error: type[JsonInputError] = JsonInputError) -> Any:
    """The JSON document in ``path`` (at most ``max_bytes``), read as :func:`parse_json` reads text."""
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise error(f"{path}: {size} bytes is over the {max_bytes}-byte limit")
        raw = path.read_bytes()
    except FileNotFoundError:
        raise error(f"cannot read {path}: file not found") from None
    except OSError as exc:
        raise error(f"cannot read {path}: {exc.strerror}") from None
    return parse_json(raw, str(path), error)
