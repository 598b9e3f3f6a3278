"""Answer extraction as LongCoT's own verifier reads it (LongHorizonReasoning/longcot
``src/_parsing.py`` and ``src/_verify/_regexes.py``), with its label-less fallbacks.

Each function names the upstream function whose rule it mirrors. Upstream reads the
whole response with unbounded parsers; here every read is bounded (text size, nesting
depth, integer digits, candidate count) and linear in the response, so a hostile answer
is rejected (``None``) where upstream raises or runs for minutes.
"""

from __future__ import annotations

import json
import re
from typing import Any

from scorers.literal import LiteralError, json_or_literal, nesting_depth
from tasks.longcot.verify.extract import final_match

MAX_RESPONSE_CHARS = 2_000_000
MAX_NESTING = 200
MAX_INT_DIGITS = 4000
MAX_JSON_CANDIDATES = 256

SOLUTION = re.compile(r"solution\s*=\s*", re.IGNORECASE)
INT = re.compile(r"-?\d+")
# Upstream's INT_CSV_PATTERN with the same matches, but a match starts only where a digit run
# starts and never backtracks (upstream's pattern is quadratic on a long digit run).
INT_CSV = re.compile(r"-?(?<!\d)\d++(?:\s*+,\s*+-?\d++)++")
OBJECT_START = re.compile(r"\{\s*[\"}]")
MOVE_LIST = re.compile(
    r"\[\s*(?:\[\s*-?\d+\s*,\s*-?\d+\s*,\s*-?\d+\s*\]\s*"
    r"(?:,\s*\[\s*-?\d+\s*,\s*-?\d+\s*,\s*-?\d+\s*\]\s*)*)?\]"
)


def bounded(text: str) -> str:
    """``text`` cut to MAX_RESPONSE_CHARS (a longer answer is read up to there)."""
    return text[:MAX_RESPONSE_CHARS]


def extract_solution(text: str) -> str | None:
    """The stripped text after the last ``solution =`` (any case); None if absent or empty.

    Mirrors ``_parsing.extract_solution``: the label may be part of a longer word and
    ``solution ==`` counts, exactly as upstream matches it.
    """
    last = final_match(SOLUTION, text)
    if last is None:
        return None
    payload = text[last.end() :].strip()
    return payload or None


def last_match(text: str, pattern: re.Pattern[str]) -> str | None:
    """The last non-empty match of ``pattern`` (``_parsing.extract_last_regex_match``)."""
    value = None
    for match in pattern.finditer(text):
        value = match.group(0) or value
    return value


def first_int(text: str) -> int | None:
    """The first ``-?\\d+`` of ``text`` (``_parsing.parse_first_int``); None beyond MAX_INT_DIGITS digits."""
    match = INT.search(text)
    if match is None or len(match.group(0)) > MAX_INT_DIGITS:
        return None
    return int(match.group(0))


def int_solution(text: str, fallback: re.Pattern[str] | None = None) -> int | None:
    """The first integer after ``solution =``; without the label, the first integer of the last
    ``fallback`` match (``_parsing.parse_int_solution``)."""
    payload = extract_solution(text)
    if payload:
        return first_int(payload)
    if fallback is None:
        return None
    found = last_match(text, fallback)
    return first_int(found) if found is not None else None


def first_balanced_brackets(text: str) -> str | None:
    """From the first ``[`` to where the ``[``/``]`` count returns to zero, quotes not considered
    (``_parsing.extract_balanced_brackets``)."""
    start = text.find("[")
    if start < 0:
        return None
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "[":
            depth += 1
        elif text[i] == "]":
            depth -= 1
            if depth == 0:
                return text[start : i + 1]
    return None


def _last_balanced(text: str, opener: str, closer: str) -> str | None:
    """The last top-level balanced ``opener ... closer`` block (a closer with nothing open is ignored)."""
    depth, start, last = 0, -1, None
    for i, ch in enumerate(text):
        if ch == opener:
            if depth == 0:
                start = i
            depth += 1
        elif ch == closer and depth:
            depth -= 1
            if depth == 0:
                last = text[start : i + 1]
    return last


def last_balanced_brackets(text: str) -> str | None:
    """The last top-level balanced ``[...]`` block (``_parsing.extract_last_balanced_brackets``)."""
    return _last_balanced(text, "[", "]")


def load_literal(text: str) -> Any:
    """JSON, else a Python literal, of ``text``; None when neither reads it or it nests too deep."""
    if nesting_depth(text) > MAX_NESTING:
        return None
    try:
        return json_or_literal(text)
    except LiteralError:
        return None


def digit_strings_to_ints(value: Any) -> Any:
    """Digit strings in (nested) lists turned into ints as ``int()`` reads them
    (``_parsing._convert_strings_to_ints``)."""
    if isinstance(value, list):
        return [digit_strings_to_ints(item) for item in value]
    if isinstance(value, str) and len(value) <= MAX_INT_DIGITS:
        try:
            return int(value)
        except ValueError:
            return value
    return value


def list_from_text(text: str, use_last: bool = False, coerce: bool = True) -> list[Any] | None:
    """The first (or last) balanced ``[...]`` of ``text`` read as a list (``_parsing.parse_list_from_text``)."""
    span = last_balanced_brackets(text) if use_last else first_balanced_brackets(text)
    if not span:
        return None
    parsed = load_literal(span)
    if not isinstance(parsed, list):
        return None
    return digit_strings_to_ints(parsed) if coerce else parsed


def _split_top_level(inner: str) -> list[str]:
    elements: list[str] = []
    depth = 0
    current: list[str] = []
    for ch in inner:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            elements.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
    if current:
        elements.append("".join(current).strip())
    return elements


def _bare_value(element: str) -> Any:
    if len(element) >= 2 and element[0] == element[-1] and element[0] in "'\"":
        return element[1:-1]
    if len(element) <= MAX_INT_DIGITS:
        for kind in (int, float):
            try:
                return kind(element)
            except ValueError:
                pass
    return element


def mixed_list_from_text(text: str, use_last: bool = False) -> list[Any] | None:
    """A list read as JSON/literal, else split on top-level commas with quoted, int, float and bare
    items (``_parsing.parse_mixed_list_from_text``)."""
    span = last_balanced_brackets(text) if use_last else first_balanced_brackets(text)
    if not span:
        return None
    parsed = list_from_text(span, coerce=False)
    if parsed is not None:
        return parsed
    inner = span[1:-1].strip()
    if not inner:
        return None
    out = [_bare_value(element) for element in _split_top_level(inner)]
    return out or None


def list_solution(text: str, fallback: re.Pattern[str] | None = None) -> list[Any] | None:
    """A list after ``solution =``; without the label, the last ``fallback`` match read as a list
    (``_parsing.parse_list_solution``)."""
    payload = extract_solution(text)
    if payload:
        return list_from_text(payload)
    if fallback is None:
        return None
    found = last_match(text, fallback)
    return list_from_text(found) if found is not None else None


def _brace_pairs(text: str) -> list[tuple[int, int]]:
    """Every ``{`` with its matching ``}`` (double-quoted strings skipped), found in one pass."""
    pairs: list[tuple[int, int]] = []
    stack: list[int] = []
    in_string = escaped = False
    for i, ch in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"' and stack:
            in_string = True
        elif ch == "{":
            stack.append(i)
        elif ch == "}" and stack:
            pairs.append((stack.pop(), i + 1))
    return pairs


def last_json_object(text: str) -> dict[str, Any] | None:
    """The JSON object that ends last in ``text`` (``_parsing.extract_last_json_object``).

    Upstream decodes from every ``{`` (quadratic, and a RecursionError on deep nesting);
    here the braces are matched in one pass, spans that cannot open a JSON object (``{``
    then neither ``"`` nor ``}``, as in LaTeX ``\\frac{1}{2}``) are skipped, the others are
    tried from the farthest end, at most MAX_JSON_CANDIDATES of them, and text nested deeper
    than MAX_NESTING is refused.
    """
    if "{" not in text or nesting_depth(text) > MAX_NESTING:
        return None
    pairs = [pair for pair in _brace_pairs(text) if OBJECT_START.match(text, pair[0])]
    candidates = sorted(pairs, key=lambda pair: (-pair[1], -pair[0]))
    for start, end in candidates[:MAX_JSON_CANDIDATES]:
        try:
            parsed = json.loads(text[start:end])
        except (ValueError, RecursionError):
            continue
        if isinstance(parsed, dict):
            return parsed
    return None


def last_balanced_braces(text: str) -> str | None:
    """The last top-level balanced ``{...}`` block (``_chess._extract_last_balanced_braces``)."""
    return _last_balanced(text, "{", "}")


def dict_payload(text: str) -> dict[Any, Any] | None:
    """A dict from ``text``: the last JSON object, else the last ``{...}`` as a Python literal,
    else the whole text as one (``_chess._parse_dict_payload``)."""
    parsed = last_json_object(text)
    if parsed is not None:
        return parsed
    for candidate in (last_balanced_braces(text), text.strip()):
        if candidate and candidate.startswith("{") and candidate.endswith("}"):
            value = load_literal(candidate)
            if isinstance(value, dict):
                return value
    return None
