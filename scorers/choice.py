"""Multiple-choice answers: one letter, or a set of letters, read from the end of an output.

Benchmarks such as CTI-MCQ, CyberMetric and SecEval ask for the answer on the last line.
Models wrap it in prose and markdown (``**Answer: B**``, ``The correct option is (B).``,
``B) Execution Prevention``, ``\\boxed{B}``); these helpers accept such decorations but
refuse anything ambiguous, so that an unparseable answer is reported as unscored rather
than silently guessed.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from scorers.extract import last_answer_value, last_nonempty_line

MAX_LINE_CHARS = 500

_MARKDOWN = re.compile(r"[*`#>_~]+")
_BOXED = re.compile(r"\\(?:boxed|text|textbf|mathrm)\s*\{([^{}]*)\}")
_PREFIX = re.compile(
    r"^(?:(?:so|thus|therefore|hence)\s*,?\s+)?"
    r"(?:(?:the|my)\s+)?(?:final\s+|correct\s+|best\s+|right\s+)?"
    r"(?:answer|option|choice|selection)s?\b"
    r"(?:\s+(?:is|are|would\s+be|will\s+be))?\s*[:=\-–]?\s*"
    r"(?:(?:option|choice)s?\s+)?",
    re.IGNORECASE,
)
_SEPARATOR = re.compile(r"\s*(?:,|;|/|&|\+|\band\b|\s)\s*", re.IGNORECASE)


def _clean(line: str) -> str:
    """``line`` without markdown, LaTeX boxes, answer prefixes and surrounding punctuation."""
    text = line[:MAX_LINE_CHARS]
    for _ in range(3):
        text = _BOXED.sub(r"\1", text)
    text = _MARKDOWN.sub("", text).strip().strip("\"'“”‘’").strip()
    text = _PREFIX.sub("", text, count=1).strip()
    return text


def _parse_single(line: str, letters: str) -> str | None:
    """The one option letter ``line`` states, or None when it states none or several."""
    text = _clean(line)
    upper = re.escape(letters.upper())
    lower = re.escape(letters.lower())
    # An uppercase letter, optionally bracketed, then nothing or a delimiter and option text.
    match = re.fullmatch(rf"[(\[]?([{upper}])[)\]]?(?:\s*[.):,\-–]\s*.*|\s*[.!]?)", text, re.DOTALL)
    if match and not re.fullmatch(rf"[(\[]?[{upper}][)\]]?\s*[,/&]\s*[(\[]?[{upper}]\b.*", text, re.DOTALL):
        return match.group(1)
    # A lowercase letter only when it stands alone.
    match = re.fullmatch(rf"[(\[]?([{lower}])[)\]]?\s*[.)]?", text)
    return match.group(1).upper() if match else None


LAST_LINE = "the last line"
ANSWER_LINE = "the last 'Answer:' line"
FIRST_LINE = "the first line"


def _read_answer_lines(text: str, parse: Callable[[str], str | None]) -> tuple[str | None, str | None]:
    """``parse`` of the last non-empty line, else of the last ``Answer:`` line, with the rule that read it."""
    if not text:
        return None, None
    line = last_nonempty_line(text)
    found = parse(line) if line is not None else None
    if found is not None:
        return found, LAST_LINE
    tagged = last_answer_value(text)
    found = parse(tagged) if tagged is not None else None
    return found, ANSWER_LINE if found is not None else None


def _from_answer_lines(text: str, parse: Callable[[str], str | None]) -> str | None:
    """``parse`` of the last non-empty line, else of the last ``Answer:`` line; None when neither parses."""
    return _read_answer_lines(text, parse)[0]


def first_nonempty_line(text: str) -> str | None:
    """The first line that is not blank, stripped (looked for in the first ``MAX_LINE_CHARS`` * 4 characters)."""
    for line in text[: MAX_LINE_CHARS * 4].splitlines():
        if line.strip():
            return line.strip()
    return None


def extract_choice(text: str, letters: str = "ABCD") -> str | None:
    """The single option letter on the last non-empty line, else the last ``Answer:`` line, else the first line.

    The first line counts only when it states a letter (``A``, ``**B**``, ``C) Fox Kitten``)
    and the answer goes on to explain it. Returns the letter in uppercase, or None when no
    unambiguous letter is found.
    """
    return read_choice(text, letters)[0]


def read_choice(text: str, letters: str = "ABCD") -> tuple[str | None, str | None]:
    """:func:`extract_choice`'s letter and the rule that read it (:data:`LAST_LINE`, :data:`ANSWER_LINE`,
    :data:`FIRST_LINE`; None when no letter was read)."""
    found, rule = _read_answer_lines(text, lambda line: _parse_single(line, letters))
    if found is not None or not text:
        return found, rule
    first = first_nonempty_line(text)
    found = _parse_single(first, letters) if first is not None else None
    return found, FIRST_LINE if found is not None else None


def _parse_multi(line: str, letters: str) -> str | None:
    """The set of letters ``line`` consists of (``ABD``, ``A, B and D``), sorted; else None."""
    text = _clean(line).rstrip(".!").strip()
    if not text:
        return None
    upper = letters.upper()
    if re.fullmatch(rf"[{re.escape(upper)}]+", text):
        chosen = set(text)
    else:
        parts = [p.strip("()[]") for p in _SEPARATOR.split(text) if p.strip("()[]")]
        if not parts or any(len(p) != 1 or p not in upper for p in parts):
            return None
        chosen = set(parts)
    return "".join(sorted(chosen))


def extract_choices(text: str, letters: str = "ABCD") -> str | None:
    """The set of option letters on the last non-empty line (else the last ``Answer:`` line), sorted.

    ``"A, C and D"`` gives ``"ACD"``; a line with any other word gives None.
    """
    return _from_answer_lines(text, lambda line: _parse_multi(line, letters))


def normalise_letters(value: str, letters: str = "ABCD") -> str | None:
    """A ground-truth letter field (``"b"``, ``" AC "``) as sorted uppercase letters, or None if invalid."""
    cleaned = re.sub(r"[\s,]+", "", str(value)).upper()
    if not cleaned or any(ch not in letters.upper() for ch in cleaned):
        return None
    return "".join(sorted(set(cleaned)))
