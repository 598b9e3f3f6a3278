"""Bounded parsing of structured literals (JSON or Python-literal lists and dicts) in model text.

Model outputs are untrusted: every function here caps the size it reads and the nesting
depth it accepts, and reports failure as ``None`` or :class:`LiteralError`, never by
crashing or by running code (only ``json`` and ``ast.literal_eval`` are used).
"""

from __future__ import annotations

import ast
import json
from typing import Any

MAX_LITERAL_CHARS = 2_000_000
MAX_DEPTH = 64
PAIRS = {"[": "]", "{": "}", "(": ")"}


class LiteralError(ValueError):
    """A text that is not a bounded JSON or Python literal."""


def balanced_span(text: str, start: int, limit: int = MAX_LITERAL_CHARS) -> str | None:
    """The bracketed text that opens at ``text[start]`` and closes at its match.

    Brackets inside single- or double-quoted strings are ignored; None when the
    bracket is not closed within ``limit`` characters or nests deeper than MAX_DEPTH.
    """
    if start >= len(text) or text[start] not in PAIRS:
        return None
    stack: list[str] = []
    quote: str | None = None
    escaped = False
    end = min(len(text), start + limit)
    for i in range(start, end):
        ch = text[i]
        if quote is not None:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                quote = None
            continue
        if ch in "\"'" and stack:
            quote = ch
        elif ch in PAIRS:
            stack.append(PAIRS[ch])
            if len(stack) > MAX_DEPTH:
                return None
        elif ch in ")]}":
            if not stack or ch != stack[-1]:
                return None
            stack.pop()
            if not stack:
                return text[start:i + 1]
    return None


def first_bracketed(text: str, openers: str = "[{", limit: int = MAX_LITERAL_CHARS) -> str | None:
    """The first balanced ``[...]`` or ``{...}`` (per ``openers``) in ``text``."""
    for i, ch in enumerate(text[:limit]):
        if ch in openers:
            span = balanced_span(text, i, limit)
            if span is not None:
                return span
    return None


def _depth_ok(text: str) -> bool:
    depth = 0
    for ch in text:
        if ch in "[{(":
            depth += 1
            if depth > MAX_DEPTH:
                return False
        elif ch in "]})":
            depth -= 1
    return True


def parse_literal(text: str) -> Any:
    """A JSON value, else a Python literal, parsed from ``text`` with size and depth limits.

    Raises LiteralError naming what is wrong.
    """
    text = text.strip()
    if not text:
        raise LiteralError("empty literal")
    if len(text) > MAX_LITERAL_CHARS:
        raise LiteralError(f"literal longer than {MAX_LITERAL_CHARS} characters")
    if not _depth_ok(text):
        raise LiteralError(f"literal nested deeper than {MAX_DEPTH}")
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        pass
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError) as exc:
        raise LiteralError(f"not a JSON or Python literal: {type(exc).__name__}") from None


def strict_equal(a: Any, b: Any) -> bool:
    """Structural equality without Python's coercions: ``True != 1``, ``1 == 1.0`` only for integral floats.

    Strings compare after collapsing whitespace runs; dict keys compare as strings.
    """
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, str) and isinstance(b, str):
        return " ".join(a.split()) == " ".join(b.split())
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(strict_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        ka = {str(k).strip(): v for k, v in a.items()}
        kb = {str(k).strip(): v for k, v in b.items()}
        return ka.keys() == kb.keys() and all(strict_equal(ka[k], kb[k]) for k in ka)
    if a is None or b is None:
        return a is None and b is None
    return False
