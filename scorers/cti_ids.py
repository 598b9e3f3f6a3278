"""Identifiers of cyber threat intelligence: CWE ids and MITRE ATT&CK technique ids.

Both are read from the last non-empty line of a model's output (the CTI-Bench protocol),
falling back to the last ``Answer: ...`` line. When neither names any, a CWE is the last
full ``CWE-<n>`` anywhere in the output (the published extraction, ``re.findall(r'CWE-\\d+')[-1]``),
and techniques are read from the last list of ids: one per line (``- T1071: Application Layer
Protocol``), in a code block, or on a line followed only by a closing sentence.
"""

from __future__ import annotations

import re

from scorers.extract import last_answer_value, last_nonempty_line, tail

MAX_LINE_CHARS = 5_000

_CWE = re.compile(r"\bCWE[ \t]{0,3}[-_:]?[ \t]{0,3}(\d{1,6})\b", re.IGNORECASE)
_FULL_CWE = re.compile(r"\bCWE-(\d{1,6})\b", re.IGNORECASE)
_TECHNIQUE = re.compile(r"(?<![A-Za-z0-9])T(\d{4})(?:\.\d{3})?(?!\d)", re.IGNORECASE)


def normalise_cwe(value: str) -> str | None:
    """``"CWE-79"``, ``"cwe 79"`` or ``"CWE-079"`` as ``"CWE-79"``; None if it is not one CWE id."""
    found = {int(m) for m in _CWE.findall(str(value)[:MAX_LINE_CHARS])}
    return f"CWE-{found.pop()}" if len(found) == 1 else None


def _cwe_on(line: str | None) -> str | None:
    """The single CWE id named on ``line`` (None if none, or several different ones)."""
    return normalise_cwe(line) if line else None


def extract_cwe(text: str) -> str | None:
    """The CWE id on the last non-empty line, else on the last ``Answer:`` line, else the last ``CWE-<n>`` anywhere.

    None when there is none, or when the last line names several different ids.
    """
    return read_cwe(text)[0]


def read_cwe(text: str) -> tuple[str | None, str | None]:
    """:func:`extract_cwe`'s id and the rule that read it (None when no id was read)."""
    if not text:
        return None, None
    line = last_nonempty_line(text)
    if line and _CWE.search(line[:MAX_LINE_CHARS]):
        found = _cwe_on(line)
        return found, "the last line" if found is not None else None
    found = _cwe_on(last_answer_value(text))
    if found is not None:
        return found, "the last 'Answer:' line"
    matches = _FULL_CWE.findall(tail(text))
    return (f"CWE-{int(matches[-1])}", "the last CWE id anywhere") if matches else (None, None)


def technique_ids(line: str) -> list[str]:
    """ATT&CK technique ids on ``line`` in order of appearance, sub-techniques mapped to their parent."""
    seen: dict[str, None] = {}
    for number in _TECHNIQUE.findall(line[:MAX_LINE_CHARS]):
        seen.setdefault(f"T{number}", None)
    return list(seen)


_LIST_LINE = re.compile(
    r"^[\s\-*+•>`|]*(?:\d{1,3}[.)]\s*)?[`*_\[(]*T\d{4}(?:\.\d{3})?[`*_\])]*"
    r"(?:\s*(?:[,;]\s*[`*_]*T\d{4}(?:\.\d{3})?[`*_]*)+)?\s*(?:[:\-–—(|].*)?$",
    re.IGNORECASE,
)
_FENCE = re.compile(r"^\s*(?:```|~~~)")


def _last_listed_block(text: str) -> list[str] | None:
    """Ids of the last run of list lines (one id, or ids and commas, each optionally named after a colon)."""
    block: list[str] = []
    found: list[str] | None = None
    for raw in tail(text).splitlines():
        line = raw.strip()
        if _FENCE.match(line):
            continue
        if line and len(line) <= MAX_LINE_CHARS and _LIST_LINE.match(line):
            block.append(line)
        elif line:
            if block:
                found = technique_ids(" ".join(block))
            block = []
    if block:
        found = technique_ids(" ".join(block))
    return found or None


def extract_techniques(text: str) -> list[str] | None:
    """Technique ids on the last non-empty line, else the last ``Answer:`` line, else the last list of ids.

    A list is a run of lines each holding ids only (``T1071``, ``- T1071: Application Layer
    Protocol``, ``T1071, T1105``), inside a code block or not; prose lines end it. None if
    there is no id in any of those places.
    """
    if not text:
        return None
    for line in (last_nonempty_line(text), last_answer_value(text)):
        if line:
            found = technique_ids(line)
            if found:
                return found
    return _last_listed_block(text)
