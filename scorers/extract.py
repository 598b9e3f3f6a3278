"""Pulling a final answer out of free-form model output."""

from __future__ import annotations

import re

MAX_SCAN_CHARS = 200_000

ANSWER_LINE = re.compile(r"(?im)^\s*(?:\*\*)?(?:final\s+)?answer(?:\*\*)?\s*[:=]\s*(?:\*\*)?\s*(.+?)\s*(?:\*\*)?\s*$")


def tail(text: str, limit: int = MAX_SCAN_CHARS) -> str:
    """The last ``limit`` characters: answers sit at the end, and huge outputs must stay cheap."""
    return text[-limit:] if len(text) > limit else text


def last_tagged_answer(text: str) -> str | None:
    """The value of the last ``ANSWER: ...`` line (case-insensitive, markdown bold allowed)."""
    matches = ANSWER_LINE.findall(tail(text or ""))
    return matches[-1].strip() if matches else None


def last_nonempty_line(text: str) -> str | None:
    """The last line that is not blank, stripped."""
    for line in reversed(tail(text or "").splitlines()):
        if line.strip():
            return line.strip()
    return None
