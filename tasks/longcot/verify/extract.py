"""Answer extraction for LongCoT: the payload of the last ``solution = ...`` in a model output.

The payload is cleaned of the wrappers models put around answers (code fences, ``$``,
``\\boxed{}``, bold, quotes) and is then read by template-specific parsers, which take
what they need from its start (a balanced list or dict, a first line, a first token).
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable

from scorers.literal import LiteralError, first_bracketed, parse_literal

MAX_PAYLOAD_CHARS = 1_000_000
MAX_INT_DIGITS = 4000
SOLUTION = re.compile(r"(?<![A-Za-z_])solution(?:\s*\}|\s*\*\*|\s*`)?\s*(?::=|=(?!=))\s*", re.IGNORECASE)
LEADING_WRAPPERS = re.compile(r"^(?:```[A-Za-z]*\s*|`+|\$+|\*\*|\\\(|\\\[|\\boxed\s*\{|\{\\bf\s*)+")
INTEGER = re.compile(r"[+-]?\d[\d,_]*")


def final_match(pattern: re.Pattern[str], text: str) -> re.Match[str] | None:
    """The last match of ``pattern`` in ``text`` (one pass, nothing kept but the last), or None."""
    found = deque(pattern.finditer(text), maxlen=1)
    return found[0] if found else None


def solution_payload(text: str) -> str | None:
    """The text after the last ``solution =`` (or ``solution:=``), wrappers removed; None if absent or empty."""
    if not text:
        return None
    last = final_match(SOLUTION, text)
    if last is None:
        return None
    payload = text[last.end() : last.end() + MAX_PAYLOAD_CHARS].strip()
    payload = LEADING_WRAPPERS.sub("", payload).strip()
    return payload or None


def first_line(payload: str) -> str:
    """The first non-empty line of ``payload``, without trailing wrappers and sentence punctuation."""
    for line in payload.splitlines():
        line = line.strip()
        if line:
            line = re.sub(r"(?:```|`+|\$+|\*\*|\\\)|\\\])+\s*$", "", line).strip()
            return line
    return ""


def clean_scalar(payload: str) -> str:
    """A scalar answer: the first line, unwrapped from quotes, ``\\boxed{}`` braces and a final period."""
    value = first_line(payload)
    value = re.sub(r"^\\(?:text|mathrm)\s*\{(.*)\}$", r"\1", value)
    if value.endswith("}") and value.count("}") > value.count("{"):
        value = value[:-1].rstrip()
    value = value.strip().strip("'\"").strip()
    return value[:-1].rstrip() if value.endswith(".") else value


def parse_int(payload: str) -> int | None:
    """The first integer of the payload's first line (``1,828`` and ``1_828`` read as 1828)."""
    match = INTEGER.search(first_line(payload))
    if match is None:
        return None
    digits = match.group(0).replace(",", "").replace("_", "")
    if len(digits) > MAX_INT_DIGITS:
        return None
    try:
        return int(digits)
    except ValueError:
        return None


def parse_structure(payload: str, openers: str = "[{") -> object | None:
    """The first balanced list/dict in the payload, parsed as JSON or a Python literal; None if there is none."""
    span = first_bracketed(payload, openers)
    if span is None:
        return None
    try:
        return parse_literal(span)
    except LiteralError:
        return None


def split_top_level(text: str) -> list[str]:
    """Split a bracketed list's inner text on commas that are not nested in brackets or quotes."""
    inner = text.strip()
    if len(inner) >= 2 and inner[0] in "[(" and inner[-1] in "])":
        inner = inner[1:-1]
    parts: list[str] = []
    depth = 0
    quote: str | None = None
    current: list[str] = []
    blank = True  # whether ``current`` is only whitespace so far: kept as a flag, so the pass stays linear
    for ch in inner:
        if quote:
            if ch == quote:
                quote = None
        elif ch in "\"'" and blank:
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0 and quote is None:
            parts.append("".join(current).strip())
            current = []
            blank = True
        else:
            current.append(ch)
            blank = blank and ch.isspace()
    if current or parts:
        parts.append("".join(current).strip())
    return [p.strip().strip("'\"").strip() for p in parts]


def coerce_ints(items: Iterable[object], token: re.Pattern[str], floats: bool) -> list[int] | None:
    """``items`` as ints: ints, strings that ``token`` matches whole (stripped) and, with ``floats``, integral
    floats; None when any item is none of these (booleans are refused)."""
    out: list[int] = []
    for item in items:
        if isinstance(item, bool):
            return None
        if isinstance(item, int):
            out.append(item)
        elif floats and isinstance(item, float) and item.is_integer():
            out.append(int(item))
        elif isinstance(item, str) and token.fullmatch(item.strip()):
            out.append(int(item.strip()))
        else:
            return None
    return out
