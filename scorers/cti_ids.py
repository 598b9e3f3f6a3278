"""Identifiers of cyber threat intelligence: CWE ids and MITRE ATT&CK technique ids.

Both are read from the last non-empty line of a model's output (the CTI-Bench protocol),
falling back to the last ``Answer: ...`` line; anything else is left unparsed.
"""

from __future__ import annotations

import re

from scorers.extract import last_answer_value, last_nonempty_line

MAX_LINE_CHARS = 5_000

_CWE = re.compile(r"\bCWE[ \t]{0,3}[-_:]?[ \t]{0,3}(\d{1,6})\b", re.IGNORECASE)
_TECHNIQUE = re.compile(r"(?<![A-Za-z0-9])T(\d{4})(?:\.\d{3})?(?!\d)", re.IGNORECASE)


def normalise_cwe(value: str) -> str | None:
    """``"CWE-79"``, ``"cwe 79"`` or ``"CWE-079"`` as ``"CWE-79"``; None if it is not one CWE id."""
    found = {int(m) for m in _CWE.findall(str(value)[:MAX_LINE_CHARS])}
    return f"CWE-{found.pop()}" if len(found) == 1 else None


def _cwe_on(line: str | None) -> str | None:
    """The single CWE id named on ``line`` (None if none, or several different ones)."""
    return normalise_cwe(line) if line else None


def extract_cwe(text: str) -> str | None:
    """The CWE id on the last non-empty line, else on the last ``Answer:`` line; None if absent or ambiguous."""
    if not text:
        return None
    found = _cwe_on(last_nonempty_line(text))
    return found if found is not None else _cwe_on(last_answer_value(text))


def technique_ids(line: str) -> list[str]:
    """ATT&CK technique ids on ``line`` in order of appearance, sub-techniques mapped to their parent."""
    seen: dict[str, None] = {}
    for number in _TECHNIQUE.findall(line[:MAX_LINE_CHARS]):
        seen.setdefault(f"T{number}", None)
    return list(seen)


def extract_techniques(text: str) -> list[str] | None:
    """Technique ids on the last non-empty line, else on the last ``Answer:`` line; None if neither has any."""
    if not text:
        return None
    for line in (last_nonempty_line(text), last_answer_value(text)):
        if line:
            found = technique_ids(line)
            if found:
                return found
    return None
