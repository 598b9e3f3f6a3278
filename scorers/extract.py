"""Pulling a final answer out of free-form model output."""

from __future__ import annotations

import re

MAX_SCAN_CHARS = 200_000

# Anchored per line, with no nested or lazy quantifier before the line end, so adversarial
# outputs (megabytes of blank lines or spaces) are scanned in linear time.
ANSWER_LINE = re.compile(r"(?im)^[ \t*_#>]{0,20}(?:final[ \t]+)?answer[ \t*_]{0,6}[:=](.*)$")


def tail(text: str, limit: int = MAX_SCAN_CHARS) -> str:
    """The last ``limit`` characters: answers sit at the end, and huge outputs must stay cheap."""
    return text[-limit:] if len(text) > limit else text


def last_answer_value(text: str) -> str | None:
    """The value after the last non-empty ``Answer:`` (or ``**Final answer** =``) line marker; None if absent."""
    if not text:
        return None
    for value in reversed(ANSWER_LINE.findall(tail(text))):
        cleaned = value.strip().strip("*_").strip()
        if cleaned:
            return cleaned
    return None


def last_nonempty_line(text: str) -> str | None:
    """The last line that is not blank, stripped."""
    for line in reversed(tail(text or "").splitlines()):
        if line.strip():
            return line.strip()
    return None
