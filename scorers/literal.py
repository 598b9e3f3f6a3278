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
MAX_RESCANS = 64
PAIRS = {"[": "]", "{": "}", "(": ")"}


class LiteralError(ValueError):
    """A text that is not a bounded JSON or Python literal."""


class _Scan:
    """One left-to-right bracket scan: the stack of open brackets (positions and expected closers)
    and the quote state, as :func:`balanced_span` would see them from any opener on the stack."""

    def __init__(self) -> None:
        self.stack: list[tuple[int, str]] = []
        self.quote: str | None = None
        self.escaped = False

    def in_quote(self, ch: str) -> bool:
        """Advance the quote state over ``ch``; True when ``ch`` is quoted text (or a closing quote)."""
        if self.quote is None:
            return False
        if self.escaped:
            self.escaped = False
        elif ch == "\\":
            self.escaped = True
        elif ch == self.quote:
            self.quote = None
        return True


def balanced_span(text: str, start: int, limit: int = MAX_LITERAL_CHARS) -> str | None:
    """The bracketed text that opens at ``text[start]`` and closes at its match.

    Brackets inside single- or double-quoted strings are ignored; None when the
    bracket is not closed within ``limit`` characters or nests deeper than MAX_DEPTH.
    """
    if start >= len(text) or text[start] not in PAIRS:
        return None
    return first_bracketed(text[start:], text[start], limit)


def first_bracketed(text: str, openers: str = "[{", limit: int = MAX_LITERAL_CHARS) -> str | None:
    """The first balanced ``[...]`` or ``{...}`` (per ``openers``) in ``text``, in linear time.

    The result is that of trying :func:`balanced_span` at each opener in turn, computed in
    one pass: every opener still open shares the stack top and quote state, so a mismatched
    closer fails all of them at once and an opener more than MAX_DEPTH below the top fails
    alone. Openers hidden in a quote of an outer opener that later fails are rescanned from
    there, at most MAX_RESCANS times (beyond that, None).
    """
    end = min(len(text), limit)
    start = 0
    for _ in range(MAX_RESCANS):
        found, rescan = _scan_from(text, start, end, openers)
        if rescan is None:
            return found
        start = rescan
    return None


def _scan_from(text: str, start: int, end: int, openers: str) -> tuple[str | None, int | None]:
    """(the first balanced span from ``start``, None) or (None, where to rescan from)."""
    scan = _Scan()
    closed: list[tuple[int, int]] = []
    hidden: list[int] = []
    for i in range(start, end):
        ch = text[i]
        if scan.in_quote(ch):
            if ch in openers:
                hidden.append(i)
            continue
        if ch in "\"'" and scan.stack:
            scan.quote = ch
        elif ch in PAIRS:
            scan.stack.append((i, PAIRS[ch]))
            if len(scan.stack) > MAX_DEPTH:
                scan.stack.pop(0)
        elif ch in ")]}" and scan.stack:
            opened, closer = scan.stack.pop()
            if ch != closer:
                scan.stack.clear()
            elif text[opened] in openers:
                closed.append((opened, i + 1))
        if not scan.stack and (closed or hidden):
            return _settle(text, closed, hidden)
    if closed or hidden:
        return _settle(text, closed, hidden)
    return None, None


def _settle(text: str, closed: list[tuple[int, int]], hidden: list[int]) -> tuple[str | None, int | None]:
    first_hidden = min(hidden) if hidden else None
    if closed:
        opened, closing = min(closed)
        if first_hidden is None or opened < first_hidden:
            return text[opened:closing], None
    return None, first_hidden


def nesting_depth(text: str) -> int:
    """The deepest nesting of brackets outside quoted strings (linear; an unmatched closer does not go below 0).

    The quote state is :class:`_Scan`'s, kept in locals: this runs over whole responses.
    """
    depth = deepest = 0
    quote: str | None = None
    escaped = False
    for ch in text:
        if quote is not None:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == quote:
                quote = None
        elif ch in "\"'":
            quote = ch
        elif ch in "[{(":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]})":
            depth = max(0, depth - 1)
    return deepest


def depth_ok(text: str, limit: int = MAX_DEPTH) -> bool:
    """True when brackets outside quoted strings nest at most ``limit`` deep."""
    return nesting_depth(text) <= limit


def parse_literal(text: str) -> Any:
    """A JSON value, else a Python literal, parsed from ``text`` with size and depth limits.

    Raises LiteralError naming what is wrong.
    """
    text = text.strip()
    if not text:
        raise LiteralError("empty literal")
    if len(text) > MAX_LITERAL_CHARS:
        raise LiteralError(f"literal longer than {MAX_LITERAL_CHARS} characters")
    if not depth_ok(text):
        raise LiteralError(f"literal nested deeper than {MAX_DEPTH}")
    return json_or_literal(text)


def json_or_literal(text: str) -> Any:
    """JSON, else a Python literal, of ``text`` as it is (the caller bounds its size and depth).

    Raises LiteralError naming why ``ast.literal_eval`` refused it.
    """
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
        return len(a) == len(b) and all(strict_equal(x, y) for x, y in zip(a, b, strict=False))
    if isinstance(a, dict) and isinstance(b, dict):
        ka = {str(k).strip(): v for k, v in a.items()}
        kb = {str(k).strip(): v for k, v in b.items()}
        return ka.keys() == kb.keys() and all(strict_equal(ka[k], kb[k]) for k in ka)
    if a is None or b is None:
        return a is None and b is None
    return False
